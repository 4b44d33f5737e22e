package storagebackend

import (
	"context"
	"fmt"
	"slices"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// reconcileRook runs the phases of a Rook-mode backend in dependency order: the Ceph
// cluster, the file system, Hadoop's root in it, the client, and the client config;
// then those Ready does not summarise, the evictor and the file system's settings. A
// phase that cannot go on says what it waits for; later phases then wait for it.
func (r *Reconciler) reconcileRook(ctx context.Context, p *pass) error {
	sb := p.sb
	spec := sb.Spec.CephFS.Rook
	ns := rook.Namespace(sb, r.RookNamespace)
	st := &sb.Status
	st.Mode = v1alpha1.StorageBackendModeRook
	st.FilesystemName = spec.FilesystemName
	st.RootPath = spec.RootPath
	st.ClientID = rook.ClientName(sb)

	if !r.APIs.Rook {
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonRookNotInstalled,
			"the API server does not serve Rook's ceph.rook.io/v1 CephCluster, CephFilesystem, CephFilesystemSubVolumeGroup and CephClient: install Rook (the operator notices within 30 seconds and restarts to watch it), or use spec.cephFS.external for a Ceph cluster Rook does not manage")
		rookMissing := lifecycle.Dependency("Rook")
		p.Lacks(v1alpha1.ConditionClientReady, rookMissing)
		return r.reportClientConfig(ctx, p, rookMissing)
	}

	found, err := r.checkCephCluster(ctx, p, ns)
	if err != nil {
		return p.Failed(v1alpha1.ConditionFilesystemReady, err)
	}
	if !found {
		cluster := lifecycle.Dependency("a CephCluster in namespace " + ns)
		p.Lacks(v1alpha1.ConditionClientReady, cluster)
		return r.reportClientConfig(ctx, p, cluster)
	}

	monitors, monitorsUnmet, err := r.readMonitors(ctx, ns)
	if err != nil {
		return p.Failed(v1alpha1.ConditionClientConfigReady, err)
	}
	st.Monitors = monitors

	// Without a file system and root this backend may use, a client with caps on them
	// would hand out access to someone else's data: the client waits for both.
	fs, err := r.reconcileFilesystem(ctx, p, ns)
	if err != nil {
		return p.Failed(v1alpha1.ConditionFilesystemReady, err)
	}
	usable := fs != nil
	if usable {
		if err := r.reportMetadataServers(ctx, p, fs); err != nil {
			return err
		}
	} else {
		p.Lacks(v1alpha1.ConditionMetadataServersHealthy, lifecycle.Dependency(v1alpha1.ConditionFilesystemReady))
	}
	if usable {
		if usable, err = r.reconcileSubVolumeGroup(ctx, p, ns, fs); err != nil {
			return p.Failed(v1alpha1.ConditionFilesystemReady, err)
		}
	}
	if !usable {
		p.Lacks(v1alpha1.ConditionClientReady, lifecycle.Dependency(v1alpha1.ConditionFilesystemReady))
		return r.reportClientConfig(ctx, p, lifecycle.Dependency(v1alpha1.ConditionFilesystemReady))
	}

	key, err := r.reconcileClient(ctx, p, ns)
	if err != nil {
		return p.Failed(v1alpha1.ConditionClientReady, err)
	}
	if key == "" {
		return r.reportClientConfig(ctx, p, lifecycle.Dependency(v1alpha1.ConditionClientReady))
	}
	if monitorsUnmet != nil {
		return r.reportClientConfig(ctx, p, *monitorsUnmet)
	}
	cfg := cephconf.Config{
		Monitors:   monitors,
		ClientID:   st.ClientID,
		Key:        key,
		Filesystem: spec.FilesystemName,
		RootPath:   spec.RootPath,
		DataPool:   rook.HadoopDataPoolName(fs),
	}
	if err := r.reconcileClientConfig(ctx, p, cfg); err != nil {
		return err
	}
	if err := r.reconcileRookEvictor(ctx, p, ns, cfg); err != nil {
		return err
	}
	return r.reconcileFilesystemSettings(ctx, p, ns, fs, cfg)
}

// checkCephCluster reports whether the Rook namespace has a CephCluster. Nothing is
// created before it does: objects in a namespace without Rook would only be litter,
// for example after a typo in spec.cephFS.rook.namespace.
func (r *Reconciler) checkCephCluster(ctx context.Context, p *pass, ns string) (bool, error) {
	clusters := &metav1.PartialObjectMetadataList{}
	clusters.SetGroupVersionKind(cephv1.SchemeGroupVersion.WithKind("CephClusterList"))
	if err := r.List(ctx, clusters, client.InNamespace(ns)); err != nil {
		return false, fmt.Errorf("listing CephClusters in namespace %s: %w", ns, err)
	}
	if len(clusters.Items) > 0 {
		return true, nil
	}
	namespace := &metav1.PartialObjectMetadata{}
	namespace.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Namespace"))
	switch err := r.Get(ctx, client.ObjectKey{Name: ns}, namespace); {
	case apierrors.IsNotFound(err):
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonRookNamespaceNotFound,
			fmt.Sprintf("Rook namespace %s does not exist: set spec.cephFS.rook.namespace to the namespace of the CephCluster, or install Rook there", ns))
	case err != nil:
		return false, fmt.Errorf("reading namespace %s: %w", ns, err)
	default:
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonCephClusterNotFound,
			fmt.Sprintf("waiting for a CephCluster in namespace %s: create one with Rook, or set spec.cephFS.rook.namespace to the namespace of yours", ns))
	}
	return false, nil
}

// daemonNetwork is where a pod must be to reach the Ceph daemons of the Rook
// namespace ns: the network of its CephCluster, the first by name should there be
// several, or the pod network when there is none.
func (r *Reconciler) daemonNetwork(ctx context.Context, ns string) (rook.Network, error) {
	clusters := &cephv1.CephClusterList{}
	if err := r.List(ctx, clusters, client.InNamespace(ns)); err != nil {
		return rook.Network{}, fmt.Errorf("listing CephClusters in namespace %s: %w", ns, err)
	}
	if len(clusters.Items) == 0 {
		return rook.Network{}, nil
	}
	cc := slices.MinFunc(clusters.Items, func(a, b cephv1.CephCluster) int { return strings.Compare(a.Name, b.Name) })
	net, err := rook.DaemonNetwork(&cc)
	if err != nil {
		return rook.Network{}, fmt.Errorf("reading the network of CephCluster %s/%s: %w", ns, cc.Name, err)
	}
	return net, nil
}

// reconcileFilesystem applies the CephFilesystem, or finds the adopted one, and reports
// its pools. It returns nil, with FilesystemReady saying why, when this backend must
// not use the file system.
func (r *Reconciler) reconcileFilesystem(ctx context.Context, p *pass, ns string) (*cephv1.CephFilesystem, error) {
	sb := p.sb
	spec := sb.Spec.CephFS.Rook
	fs := &cephv1.CephFilesystem{}
	err := r.Get(ctx, client.ObjectKey{Namespace: ns, Name: spec.FilesystemName}, fs)
	if err != nil && !apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("reading CephFilesystem %s/%s: %w", ns, spec.FilesystemName, err)
	}
	exists := err == nil
	ref := "CephFilesystem " + ns + "/" + spec.FilesystemName

	switch {
	case spec.AdoptExisting && !exists:
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonFilesystemNotFound,
			ref+" does not exist: adoptExisting uses an existing file system and never creates one")
		return nil, nil
	case spec.AdoptExisting:
		// Adopted file systems are read, never written.
	case exists && !rook.OwnedBy(fs, sb):
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonFilesystemOwnedElsewhere,
			fmt.Sprintf("%s already exists and was %s; it is left untouched: set spec.cephFS.rook.adoptExisting to use it, or choose another filesystemName", ref, rook.Owner(fs)))
		return nil, nil
	case exists && naming.DoNotReconcile(fs):
	default:
		fs = rook.Filesystem(sb, ns)
		if err := r.apply(ctx, p, fs, func() { rook.MutateFilesystem(fs, sb) }); err != nil {
			return nil, err
		}
	}

	p.sb.Status.DataPools = rook.FilesystemDataPools(fs)
	p.sb.Status.RawOverhead = rook.HadoopRawOverhead(p.sb.Status.DataPools)
	if phase := filesystemPhase(fs); phase != cephv1.ConditionReady {
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonWaitingForFilesystem,
			fmt.Sprintf("waiting for Rook to bring %s to phase Ready (phase: %s)", ref, phaseText(phase)))
	}
	return fs, nil
}

// reconcileSubVolumeGroup applies the subvolume group that is Hadoop's root and
// completes FilesystemReady. It reports whether the root is this backend's to use.
func (r *Reconciler) reconcileSubVolumeGroup(ctx context.Context, p *pass, ns string, fs *cephv1.CephFilesystem) (bool, error) {
	sb := p.sb
	root := sb.Spec.CephFS.Rook.RootPath
	layout := rook.SubVolumeGroupDataPool(fs)
	svg := rook.SubVolumeGroupObject(sb, ns, layout)
	ref := r.describe(svg)

	existing := &cephv1.CephFilesystemSubVolumeGroup{}
	err := r.Get(ctx, client.ObjectKeyFromObject(svg), existing)
	adopt := false
	if err == nil && !rook.OwnedBy(existing, sb) && sb.Spec.CephFS.Rook.AdoptExisting {
		if adopt, err = r.ownerGone(ctx, existing); err != nil {
			return false, err
		}
	}
	switch {
	case err != nil && !apierrors.IsNotFound(err):
		return false, fmt.Errorf("reading %s: %w", ref, err)
	case err == nil && !rook.OwnedBy(existing, sb) && !adopt:
		hint := "choose another rootPath"
		if !sb.Spec.CephFS.Rook.AdoptExisting {
			hint += ", or set adoptExisting to take over the root of a deleted StorageBackend"
		}
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonSubVolumeGroupOwnedElsewhere,
			fmt.Sprintf("%s for Hadoop's root %s already exists and was %s; it is left untouched: %s", ref, root, rook.Owner(existing), hint))
		return false, nil
	case adopt:
		// The root and its files outlived the backend that made them (preserveOnDelete);
		// this one takes them over as they are.
		if err := r.apply(ctx, p, svg, func() { rook.MutateSubVolumeGroup(svg, sb, layout) }); err != nil {
			return false, err
		}
		r.Events.Normal(p.sb, svg, v1alpha1.EventReasonAdopted, "Adopt",
			fmt.Sprintf("Adopted %s, Hadoop's root %s, which was %s", ref, root, rook.Owner(existing)))
	case err == nil && naming.DoNotReconcile(existing):
		svg = existing
	default:
		if err := r.apply(ctx, p, svg, func() { rook.MutateSubVolumeGroup(svg, sb, layout) }); err != nil {
			return false, err
		}
	}

	if filesystemPhase(fs) != cephv1.ConditionReady {
		return true, nil
	}
	if phase := subVolumeGroupPhase(svg); phase != cephv1.ConditionReady {
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonWaitingForSubVolumeGroup,
			fmt.Sprintf("waiting for Rook to create Hadoop's root %s through %s (phase: %s)", root, ref, phaseText(phase)))
		return true, nil
	}
	message := fmt.Sprintf("%s is ready with Hadoop's root %s", r.describe(fs), root)
	if pool := rook.HadoopDataPoolName(fs); pool != "" {
		message += " on data pool " + pool
	}
	p.True(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonReconciled, message)
	return true, nil
}

// ownerGone reports whether obj was made for a StorageBackend that no longer exists:
// what such a backend preserved may be adopted. Objects without the labels of a
// StorageBackend were made by someone else and are never taken over.
func (r *Reconciler) ownerGone(ctx context.Context, obj client.Object) (bool, error) {
	labels := obj.GetLabels()
	ns, name := labels[naming.LabelStorageBackendNamespace], labels[naming.LabelStorageBackendName]
	if ns == "" || name == "" || labels[naming.LabelManagedBy] != naming.ManagedBy {
		return false, nil
	}
	backends := &v1alpha1.StorageBackendList{}
	if err := r.List(ctx, backends, client.InNamespace(ns)); err != nil {
		return false, fmt.Errorf("listing StorageBackends in namespace %s: %w", ns, err)
	}
	for i := range backends.Items {
		if rook.OwnedBy(obj, &backends.Items[i]) {
			return false, nil
		}
	}
	return true, nil
}

// reconcileClient applies Hadoop's CephClient and returns its key once Rook has
// created it; an empty key means ClientReady says what is missing.
func (r *Reconciler) reconcileClient(ctx context.Context, p *pass, ns string) (string, error) {
	return r.rookClientKey(ctx, p, rook.Client(p.sb, ns), rook.MutateClient, v1alpha1.ConditionClientReady,
		"set spec.cephFS.rook.clientName to another name")
}

// rookClientKey applies the CephClient cc (mutate sets what the StorageBackend
// decides) and returns its key once Rook has created it; an empty key means the
// condition cond says what is missing. remedy tells a user what to do when cc exists
// and is someone else's.
func (r *Reconciler) rookClientKey(ctx context.Context, p *pass, cc *cephv1.CephClient,
	mutate func(*cephv1.CephClient, *v1alpha1.StorageBackend), cond, remedy string) (string, error) {
	sb := p.sb
	ns := cc.Namespace
	ref := r.describe(cc)

	existing := &cephv1.CephClient{}
	err := r.Get(ctx, client.ObjectKeyFromObject(cc), existing)
	switch {
	case err != nil && !apierrors.IsNotFound(err):
		return "", fmt.Errorf("reading %s: %w", ref, err)
	case err == nil && !rook.OwnedBy(existing, sb):
		p.False(cond, v1alpha1.ReasonClientOwnedElsewhere,
			fmt.Sprintf("%s already exists and was %s; it is left untouched: %s", ref, rook.Owner(existing), remedy))
		return "", nil
	case err == nil && naming.DoNotReconcile(existing):
		cc = existing
	default:
		if err := r.apply(ctx, p, cc, func() { mutate(cc, sb) }); err != nil {
			return "", err
		}
	}

	if phase := clientPhase(cc); phase != cephv1.ConditionReady {
		p.False(cond, v1alpha1.ReasonWaitingForClient,
			fmt.Sprintf("waiting for Rook to create the cephx key of %s (phase: %s)", ref, phaseText(phase)))
		return "", nil
	}
	secretName := rook.ClientSecretName(cc.Name)
	if cc.Status != nil && cc.Status.Info["secretName"] != "" {
		secretName = cc.Status.Info["secretName"]
	}
	key, keyUnmet, err := r.readKey(ctx, client.ObjectKey{Namespace: ns, Name: secretName}, rook.ClientSecretKeyKey)
	if err != nil {
		return "", err
	}
	if keyUnmet != nil {
		if keyUnmet.Reason == v1alpha1.ReasonSecretNotFound {
			// Rook writes the Secret soon after the client is ready: a wait, not an error.
			keyUnmet = &lifecycle.Unmet{Reason: v1alpha1.ReasonWaitingForClientSecret, Message: fmt.Sprintf("waiting for Rook to write the key of %s into Secret %s/%s", ref, ns, secretName)}
		}
		p.Lacks(cond, *keyUnmet)
		return "", nil
	}
	p.True(cond, v1alpha1.ReasonReconciled,
		fmt.Sprintf("%s is ready; its key is in Secret %s/%s", ref, ns, secretName))
	return key, nil
}

// readKey reads a cephx key from a Secret.
func (r *Reconciler) readKey(ctx context.Context, key client.ObjectKey, field string) (string, *lifecycle.Unmet, error) {
	secret := &corev1.Secret{}
	ref := "Secret " + key.String()
	if err := r.APIReader.Get(ctx, key, secret); err != nil {
		if apierrors.IsNotFound(err) {
			return "", &lifecycle.Unmet{Reason: v1alpha1.ReasonSecretNotFound, Message: ref + " does not exist"}, nil
		}
		return "", nil, fmt.Errorf("reading %s: %w", ref, err)
	}
	value, ok := secret.Data[field]
	if !ok {
		return "", &lifecycle.Unmet{Reason: v1alpha1.ReasonSecretKeyMissing, Message: fmt.Sprintf("%s has no key %q", ref, field)}, nil
	}
	// Keys written by hand often end in a newline; Ceph ignores surrounding space too.
	cephxKey := strings.TrimSpace(string(value))
	if err := cephconf.ValidateKey(cephxKey); err != nil {
		return "", &lifecycle.Unmet{Reason: v1alpha1.ReasonInvalidKey, Message: fmt.Sprintf("key %q of %s is not a usable cephx key: %v", field, ref, err)}, nil
	}
	return cephxKey, nil, nil
}

// readMonitors reads the monitors from Rook's mon endpoints ConfigMap.
func (r *Reconciler) readMonitors(ctx context.Context, ns string) ([]string, *lifecycle.Unmet, error) {
	cm := &corev1.ConfigMap{}
	key := client.ObjectKey{Namespace: ns, Name: rook.MonEndpointsConfigMap}
	ref := "ConfigMap " + key.String()
	if err := r.APIReader.Get(ctx, key, cm); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, &lifecycle.Unmet{Reason: v1alpha1.ReasonMonEndpointsNotFound, Message: "waiting for Rook to publish the monitors in " + ref}, nil
		}
		return nil, nil, fmt.Errorf("reading %s: %w", ref, err)
	}
	monitors, err := cephconf.ParseMonEndpoints(cm.Data[rook.MonEndpointsKey])
	if err != nil {
		return nil, &lifecycle.Unmet{Reason: v1alpha1.ReasonInvalidMonEndpoints, Message: fmt.Sprintf("%s, key %s: %v", ref, rook.MonEndpointsKey, err)}, nil
	}
	return monitors, nil, nil
}

// apply creates obj or patches the fields mutate sets. The patch is a merge patch
// computed from the object as read and as mutated, so fields this operator's copy of
// the Rook API does not know are never sent, and nothing is sent when nothing changed.
func (r *Reconciler) apply(ctx context.Context, p *pass, obj client.Object, mutate func()) error {
	ref := r.describe(obj)
	op, err := controllerutil.CreateOrPatch(ctx, r.Client, obj, func() error {
		mutate()
		return nil
	})
	switch {
	case apierrors.IsAlreadyExists(err):
		// The cache has not seen an object created moments ago; its watch event brings
		// the next pass, which patches it if needed.
		log.FromContext(ctx).V(1).Info("object exists but is not cached yet", "object", ref)
	case err != nil:
		return fmt.Errorf("applying %s: %w", ref, err)
	case op == controllerutil.OperationResultCreated:
		r.Events.Normal(p.sb, obj, v1alpha1.EventReasonCreated, "Create", "Created "+ref)
	case op == controllerutil.OperationResultUpdated:
		r.Events.Normal(p.sb, obj, v1alpha1.EventReasonUpdated, "Update", "Updated "+ref+" to match the StorageBackend")
	}
	return nil
}

// describe names obj with its kind for messages; objects read through a client carry
// no kind of their own, so it comes from the scheme.
func (r *Reconciler) describe(obj client.Object) string {
	kind := "object"
	if gvk, err := apiutil.GVKForObject(obj, r.Scheme); err == nil {
		kind = gvk.Kind
	}
	return kind + " " + obj.GetNamespace() + "/" + obj.GetName()
}

func filesystemPhase(fs *cephv1.CephFilesystem) cephv1.ConditionType {
	if fs.Status == nil {
		return ""
	}
	return fs.Status.Phase
}

func subVolumeGroupPhase(svg *cephv1.CephFilesystemSubVolumeGroup) cephv1.ConditionType {
	if svg.Status == nil {
		return ""
	}
	return svg.Status.Phase
}

func clientPhase(cc *cephv1.CephClient) cephv1.ConditionType {
	if cc.Status == nil {
		return ""
	}
	return cc.Status.Phase
}

func phaseText(phase cephv1.ConditionType) string {
	if phase == "" {
		return "none yet"
	}
	return string(phase)
}
