package storagebackend

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// The file system settings are Ceph flags of a Rook-mode backend's file system that
// Rook does not set and a Rook cluster with several file systems needs
// (rook.FilesystemSettings): a third cephx client, allowed to set exactly those, and a
// Job that sets them with its key. FilesystemSettingsApplied reports them; Ready does
// not depend on them, since Hadoop works without. Their phase runs once Hadoop's own
// client config is written. The Job is kept once it has finished: it is the record
// that the settings were applied, so a later pass neither runs it again nor forgets.

// reconcileFilesystemSettings applies the settings client, renders its config Secret
// and runs the Job that applies the settings to fs, once fs is Ready.
func (r *Reconciler) reconcileFilesystemSettings(ctx context.Context, p *pass, ns string, fs *cephv1.CephFilesystem, hadoopCfg cephconf.Config) error {
	sb := p.sb
	const cond = v1alpha1.ConditionFilesystemSettingsApplied
	clientID := rook.SettingsClientName(sb)
	key, err := r.rookClientKey(ctx, p, rook.SettingsClient(sb, ns), rook.MutateSettingsClient, cond, "delete it")
	if err != nil {
		return p.Failed(cond, err)
	}
	if key != "" {
		cfg := hadoopCfg
		cfg.ClientID, cfg.Key = clientID, key
		desired := cephconf.SettingsSecret(sb, cfg)
		written, err := r.writeConfigSecret(ctx, sb, desired, clientID)
		if err != nil {
			return p.Failed(cond, err)
		}
		if !written {
			p.False(cond, v1alpha1.ReasonClientConfigSecretConflict,
				"Secret "+desired.Namespace+"/"+desired.Name+" exists and is not controlled by this StorageBackend; it is left untouched: delete or rename it")
			return nil
		}
	}

	settings := hadoop.FilesystemSettings{
		Backend:      sb.Name,
		Namespace:    sb.Namespace,
		Labels:       naming.StorageBackendLabels(sb),
		Image:        r.HadoopImage,
		Filesystem:   fs.Name,
		FilesystemID: string(fs.UID),
		Settings:     rook.FilesystemSettings(),
		ClientID:     clientID,
		ConfigSecret: cephconf.SettingsSecretName(sb.Name),
	}
	name := hadoop.FilesystemSettingsJobName(settings)
	if err := r.deleteSettingsJobs(ctx, p, name, "of earlier file system settings"); err != nil {
		return p.Failed(cond, err)
	}
	commands := settingsCommands(fs.Name, settings.Settings)
	job := &batchv1.Job{}
	err = r.Get(ctx, client.ObjectKey{Namespace: sb.Namespace, Name: name}, job)
	switch {
	case err != nil && !apierrors.IsNotFound(err):
		return p.Failed(cond, fmt.Errorf("reading Job %s/%s: %w", sb.Namespace, name, err))
	case err == nil && !metav1.IsControlledBy(job, sb):
		p.False(cond, v1alpha1.ReasonSettingsFailed,
			fmt.Sprintf("Job %s/%s exists and is not controlled by this StorageBackend; it is left untouched: delete or rename it, and the operator runs %s", sb.Namespace, name, commands))
	case err == nil && lifecycle.JobCondition(job, batchv1.JobComplete) != nil:
		p.True(cond, v1alpha1.ReasonSettingsApplied,
			fmt.Sprintf("Job %s/%s ran %s as client.%s: Ceph does not hand this file system's standby MDS daemons to another file system", sb.Namespace, name, commands, clientID))
	case err == nil && lifecycle.JobCondition(job, batchv1.JobFailed) != nil:
		failed := lifecycle.JobCondition(job, batchv1.JobFailed)
		p.False(cond, v1alpha1.ReasonSettingsFailed,
			fmt.Sprintf("Job %s/%s, which runs %s as client.%s, failed (%s: %s): see its pod's log. A Ceph older than 18 (Reef) has no such flag and says so there: on it, another file system may take this file system's standby MDS daemons, which Rook's liveness probe then restarts, until Ceph is upgraded; otherwise correct what the log names and delete the Job to try again",
				sb.Namespace, name, commands, clientID, failed.Reason, failed.Message))
	case err == nil:
		p.False(cond, v1alpha1.ReasonApplyingSettings,
			fmt.Sprintf("Job %s/%s runs %s as client.%s", sb.Namespace, name, commands, clientID))
	case key == "":
		// rookClientKey's condition says what the client waits for.
	case filesystemPhase(fs) != cephv1.ConditionReady:
		p.Lacks(cond, lifecycle.Dependency(v1alpha1.ConditionFilesystemReady))
	case r.HadoopImage == "":
		p.False(cond, v1alpha1.ReasonSettingsFailed,
			"the operator runs "+commands+" with the Hadoop image's ceph command, and was not given the image (--hadoop-image, the chart's hadoopImage)")
	default:
		return r.startSettingsJob(ctx, p, ns, settings, commands)
	}
	return nil
}

// startSettingsJob creates the Job of settings. Its pod reaches Ceph the way Rook's
// daemons are reached.
func (r *Reconciler) startSettingsJob(ctx context.Context, p *pass, rookNamespace string, settings hadoop.FilesystemSettings, commands string) error {
	const cond = v1alpha1.ConditionFilesystemSettingsApplied
	net, err := r.daemonNetwork(ctx, rookNamespace)
	if err != nil {
		return p.Failed(cond, err)
	}
	settings.HostNetwork, settings.PublicNetwork = net.Host, net.Public
	job := hadoop.FilesystemSettingsJob(settings)
	if err := controllerutil.SetControllerReference(p.sb, job, r.Scheme); err != nil {
		return p.Failed(cond, err)
	}
	// A Job created moments ago may not be cached yet: then it exists already.
	switch err := r.Create(ctx, job); {
	case apierrors.IsAlreadyExists(err):
	case err != nil:
		return p.Failed(cond, fmt.Errorf("creating Job %s/%s: %w", job.Namespace, job.Name, err))
	default:
		r.Events.Normal(p.sb, job, v1alpha1.EventReasonCreated, "Create",
			fmt.Sprintf("Created Job %s/%s, which runs %s as client.%s", job.Namespace, job.Name, commands, settings.ClientID))
	}
	p.False(cond, v1alpha1.ReasonApplyingSettings,
		fmt.Sprintf("Job %s/%s runs %s as client.%s", job.Namespace, job.Name, commands, settings.ClientID))
	return nil
}

// deleteSettingsJobs deletes this backend's settings Jobs other than keep ("" keeps
// none), with their pods; why ends the events.
func (r *Reconciler) deleteSettingsJobs(ctx context.Context, p *pass, keep, why string) error {
	jobs := &batchv1.JobList{}
	selector := naming.StorageBackendLabels(p.sb)
	selector[hadoop.LabelComponent] = string(hadoop.FilesystemSettingsComponent)
	if err := r.List(ctx, jobs, client.InNamespace(p.sb.Namespace), client.MatchingLabels(selector)); err != nil {
		return fmt.Errorf("listing the file system settings Jobs: %w", err)
	}
	for i := range jobs.Items {
		job := &jobs.Items[i]
		if job.Name == keep || !metav1.IsControlledBy(job, p.sb) || !job.DeletionTimestamp.IsZero() {
			continue
		}
		if err := r.Delete(ctx, job, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("deleting Job %s/%s: %w", job.Namespace, job.Name, err)
		}
		r.Events.Normal(p.sb, job, v1alpha1.EventReasonDeleted, "Delete", "Deleted Job "+job.Namespace+"/"+job.Name+" "+why)
	}
	return nil
}

// removeFilesystemSettings deletes, on the backend's deletion, what applied the
// settings: the Jobs, the settings client's config Secret and, when this backend made
// it, its CephClient. The settings themselves stay on the file system: they are what
// keeps its standby MDS daemons from other file systems as long as it exists, and no
// data depends on the client. Rook deletes the cephx key with the CephClient.
func (r *Reconciler) removeFilesystemSettings(ctx context.Context, p *pass) error {
	sb := p.sb
	if err := r.deleteSettingsJobs(ctx, p, "", "with the StorageBackend; the file system keeps the settings it applied"); err != nil {
		return err
	}

	secret := &metav1.PartialObjectMetadata{}
	secret.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	key := client.ObjectKey{Namespace: sb.Namespace, Name: cephconf.SettingsSecretName(sb.Name)}
	switch err := r.Get(ctx, key, secret); {
	case apierrors.IsNotFound(err):
	case err != nil:
		return fmt.Errorf("reading Secret %s: %w", key, err)
	case metav1.IsControlledBy(secret, sb):
		if err := r.Delete(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("deleting Secret %s: %w", key, err)
		}
	}

	cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rook.Namespace(sb, r.RookNamespace), Name: rook.SettingsClientName(sb)}}
	ref := r.describe(cc)
	if err := r.Get(ctx, client.ObjectKeyFromObject(cc), cc); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("reading %s: %w", ref, err)
	}
	if !rook.OwnedBy(cc, sb) || naming.DoNotReconcile(cc) || !cc.DeletionTimestamp.IsZero() {
		return nil
	}
	if err := r.Delete(ctx, cc); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("deleting %s: %w", ref, err)
	}
	r.Events.Normal(sb, cc, v1alpha1.EventReasonDeleted, "Delete",
		fmt.Sprintf("Deleted %s, which set %s on file system %s; the file system keeps the settings", ref, settingsText(rook.FilesystemSettings()), sb.Spec.CephFS.Rook.FilesystemName))
	return nil
}

// settingsCommands are the commands that apply settings to filesystem, for messages.
func settingsCommands(filesystem string, settings map[string]string) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		out = append(out, fmt.Sprintf("`ceph fs set %s %s %s`", filesystem, k, settings[k]))
	}
	return strings.Join(out, ", ")
}

// settingsText names settings as variable=value, for messages.
func settingsText(settings map[string]string) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		out = append(out, k+"="+settings[k])
	}
	return strings.Join(out, ", ")
}
