package storagebackend

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hdfs"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// NameNodeAsker asks a NameNode's web server (host:port) for its state, replication
// and block size; hdfs.NameNodeClient is the real one.
type NameNodeAsker interface {
	Ask(ctx context.Context, httpAddress string) (hdfs.NameNode, error)
}

// Nothing tells the operator when a NameNode stops or fails over, so an HDFS backend
// is asked again: soon while no NameNode is active, and now and then once one is.
const (
	hdfsRetryInterval   = 30 * time.Second
	hdfsRecheckInterval = 5 * time.Minute
)

// reconcileHDFS renders the client configuration of an HDFS that already runs and
// reports whether an active NameNode answers. The HDFS itself is never changed.
func (r *Reconciler) reconcileHDFS(ctx context.Context, p *pass) error {
	sb := p.sb
	st := &sb.Status
	st.Mode = v1alpha1.StorageBackendModeHDFS
	askAgain := hdfsRetryInterval
	defer func() { p.RequeueWithin(askAgain) }()

	cfg, unmet, err := r.hdfsClientConfig(ctx, sb)
	if err != nil {
		return p.Failed(v1alpha1.ConditionFilesystemReady, err)
	}
	if unmet != nil {
		p.False(v1alpha1.ConditionFilesystemReady, unmet.Reason, unmet.Message)
		return r.reportClientConfig(ctx, p, lifecycle.Dependency(v1alpha1.ConditionFilesystemReady))
	}
	st.FilesystemName = cfg.DefaultFS
	st.HDFS = &v1alpha1.HDFSStatus{DefaultFS: cfg.DefaultFS}

	active, activeAt, failures := r.askNameNodes(ctx, cfg.HTTPAddresses, st.HDFS)
	if active == nil {
		reason, message := v1alpha1.ReasonNoActiveNameNode, fmt.Sprintf("no NameNode of %s is active", cfg.DefaultFS)
		if len(failures) == len(cfg.HTTPAddresses) {
			reason, message = v1alpha1.ReasonNameNodeUnreachable, fmt.Sprintf("no NameNode of %s answered", cfg.DefaultFS)
		}
		if len(failures) > 0 {
			message += ": " + strings.Join(failures, "; ")
		}
		p.False(v1alpha1.ConditionFilesystemReady, reason, message)
		return r.reportClientConfig(ctx, p, lifecycle.Dependency(v1alpha1.ConditionFilesystemReady))
	}

	cfg = cfg.WithNameNodeDefaults(active.Replication, active.BlockSize)
	replication, err := cfg.Replication()
	if err == nil {
		st.HDFS.BlockSize, err = cfg.BlockSize()
	}
	if err != nil {
		p.False(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonInvalidDiscoveryConfigMap, hdfsSpecField(sb)+": "+err.Error())
		return r.reportClientConfig(ctx, p, lifecycle.Dependency(v1alpha1.ConditionFilesystemReady))
	}
	st.HDFS.Replication = replication
	st.RawOverhead = rook.FormatOverhead(int64(replication), 1)
	p.True(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonReconciled,
		fmt.Sprintf("HDFS %s answers: NameNode %s is active; clients write %d replicas in blocks of %d bytes", cfg.DefaultFS, activeAt, replication, st.HDFS.BlockSize))
	askAgain = hdfsRecheckInterval
	return r.reconcileClientConfigMap(ctx, p, cfg)
}

// hdfsSpecField names the field an HDFS backend's client configuration comes from.
func hdfsSpecField(sb *v1alpha1.StorageBackend) string {
	if sb.Spec.HDFS.DiscoveryConfigMap != nil {
		return "ConfigMap " + sb.Spec.HDFS.DiscoveryConfigMap.Name + " (spec.hdfs.discoveryConfigMap)"
	}
	return "spec.hdfs.nameNodes"
}

// hdfsClientConfig is the client configuration the spec describes, read from the
// discovery ConfigMap when it names one.
func (r *Reconciler) hdfsClientConfig(ctx context.Context, sb *v1alpha1.StorageBackend) (hdfs.ClientConfig, *lifecycle.Unmet, error) {
	spec := sb.Spec.HDFS
	if spec.DiscoveryConfigMap == nil {
		return hdfs.FromNameNodes(sb.Name, spec.NameNodes), nil, nil
	}
	key := client.ObjectKey{Namespace: sb.Namespace, Name: spec.DiscoveryConfigMap.Name}
	// The cache holds ConfigMaps as metadata only; the content comes from the API server.
	cm := &corev1.ConfigMap{}
	if err := r.APIReader.Get(ctx, key, cm); err != nil {
		if apierrors.IsNotFound(err) {
			return hdfs.ClientConfig{}, &lifecycle.Unmet{Reason: v1alpha1.ReasonConfigMapNotFound,
				Message: fmt.Sprintf("ConfigMap %s (spec.hdfs.discoveryConfigMap) does not exist: create it, or name the HDFS's discovery ConfigMap", key)}, nil
		}
		return hdfs.ClientConfig{}, nil, fmt.Errorf("reading ConfigMap %s: %w", key, err)
	}
	cfg, err := hdfs.FromDiscovery(cm.Data)
	if err != nil {
		return hdfs.ClientConfig{}, &lifecycle.Unmet{Reason: v1alpha1.ReasonInvalidDiscoveryConfigMap,
			Message: fmt.Sprintf("ConfigMap %s (spec.hdfs.discoveryConfigMap) %v: it needs core-site.xml with fs.defaultFS=hdfs://..., and hdfs-site.xml with the NameNodes of a nameservice", key, err)}, nil
	}
	return cfg, nil, nil
}

// askNameNodes asks every NameNode, records what each said in st, and returns the
// first active one with its address, and what went wrong with those that failed.
func (r *Reconciler) askNameNodes(ctx context.Context, addresses []string, st *v1alpha1.HDFSStatus) (*hdfs.NameNode, string, []string) {
	var active *hdfs.NameNode
	var activeAt string
	var failures []string
	for _, addr := range addresses {
		nn, err := r.NameNodes.Ask(ctx, addr)
		state := nn.State
		if err != nil {
			state = "unreachable"
			failures = append(failures, fmt.Sprintf("%s: %v", addr, err))
		}
		st.NameNodes = append(st.NameNodes, v1alpha1.HDFSNameNodeStatus{HTTPAddress: addr, State: state})
		if err == nil && state == "active" && active == nil {
			active, activeAt = &nn, addr
		}
	}
	return active, activeAt, failures
}

// reconcileClientConfigMap writes the client ConfigMap rendered from cfg when its
// content differs, and reports its name and hash.
func (r *Reconciler) reconcileClientConfigMap(ctx context.Context, p *pass, cfg hdfs.ClientConfig) error {
	sb := p.sb
	desired := hdfs.ConfigMap(sb, cfg)
	existing := &corev1.ConfigMap{}
	written, err := r.writeRendered(ctx, sb, "ConfigMap", desired, existing, func() { existing.Data = desired.Data },
		"the HDFS client configuration of "+cfg.DefaultFS)
	if err != nil {
		return p.Failed(v1alpha1.ConditionClientConfigReady, err)
	}
	ref := "ConfigMap " + desired.Namespace + "/" + desired.Name
	if !written {
		p.False(v1alpha1.ConditionClientConfigReady, v1alpha1.ReasonClientConfigMapConflict,
			ref+" exists and is not controlled by this StorageBackend; it is left untouched: delete or rename it")
		return nil
	}
	sb.Status.ClientConfigMap = desired.Name
	sb.Status.ClientConfigHash = desired.Annotations[hdfs.HashAnnotation]
	p.True(v1alpha1.ConditionClientConfigReady, v1alpha1.ReasonReconciled,
		fmt.Sprintf("%s holds core-site.xml and hdfs-site.xml for %s", ref, cfg.DefaultFS))
	return nil
}
