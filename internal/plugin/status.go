package plugin

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/kubernetes"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// ClusterStatus is what `status` shows: the HadoopCluster as the operator reports it,
// and YARN as its ResourceManager does.
type ClusterStatus struct {
	Namespace    string             `json:"namespace"`
	Name         string             `json:"name"`
	Ready        string             `json:"ready"`
	Reason       string             `json:"reason,omitempty"`
	NodeManagers string             `json:"nodeManagers,omitempty"`
	Nodes        []yarn.Node        `json:"nodes"`
	Queues       []yarn.Queue       `json:"queues"`
	Applications []yarn.Application `json:"applications"`
}

// YARN's application states, the unfinished ones first: those are what `status`
// lists unless --all asks for every application the ResourceManager remembers.
var unfinishedAppStates = []string{"NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING"}

// yarnGet reads a path of the ResourceManager's REST API, such as ws/v1/cluster/nodes.
type yarnGet func(ctx context.Context, path string, params map[string]string) ([]byte, error)

func newStatusCommand(o *Options) *cobra.Command {
	var all bool
	var user string
	cmd := &cobra.Command{
		Use:   "status CLUSTER",
		Short: "YARN's nodes, queues and applications of a HadoopCluster, through the API server",
		Long: `status asks the HadoopCluster's ResourceManager for its nodes, its Capacity Scheduler
queues and its applications, through the API server's service proxy: no port-forward,
and the same access as kubectl's, which needs get on services/proxy in the cluster's
namespace. The API server must reach the ResourceManager's web port; when the cluster's
NetworkPolicies limit web clients (spec.access.clients.web), admit the API server's
addresses there.`,
		Args: cobra.ExactArgs(1),
	}
	output := outputFlag(cmd)
	cmd.Flags().BoolVar(&all, "all", false, "List every application the ResourceManager remembers, not only unfinished ones.")
	cmd.Flags().StringVar(&user, "yarn-user", "", "Ask YARN as this user (user.name, simple authentication); with YARN's ACLs on, an anonymous reader sees less of others' applications.")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		c, ns, err := o.connect()
		if err != nil {
			return err
		}
		cs, err := o.clientset()
		if err != nil {
			return err
		}
		hc, err := getCluster(cmd.Context(), c, ns, args[0])
		if err != nil {
			return err
		}
		st, err := ReadClusterStatus(cmd.Context(), hc, serviceProxy(cs, hc, user), all)
		if err != nil {
			return err
		}
		if *output != outputTable {
			return printData(o.Streams.Out, *output, st)
		}
		return WriteClusterStatus(o.Streams.Out, st, time.Now())
	}
	return cmd
}

// serviceProxy reads the ResourceManager's web port through the API server, as the
// user whose kubeconfig the plugin runs with.
func serviceProxy(cs kubernetes.Interface, hc *v1alpha1.HadoopCluster, user string) yarnGet {
	svc := hadoop.ResourceManagerService(hc)
	return func(ctx context.Context, path string, params map[string]string) ([]byte, error) {
		if user != "" {
			params["user.name"] = user
		}
		body, err := cs.CoreV1().Services(hc.Namespace).ProxyGet("http", svc.Name, "http", path, params).DoRaw(ctx)
		if err != nil {
			return nil, fmt.Errorf("asking the ResourceManager (Service %s/%s, port http) through the API server's service proxy for %s: %w; "+
				"is the HadoopCluster Ready, and do its NetworkPolicies admit the API server on the web port (spec.access.clients.web)?",
				hc.Namespace, svc.Name, path, err)
		}
		return body, nil
	}
}

// ReadClusterStatus asks YARN through get for its nodes, queues and applications.
func ReadClusterStatus(ctx context.Context, hc *v1alpha1.HadoopCluster, get yarnGet, all bool) (*ClusterStatus, error) {
	st := &ClusterStatus{Namespace: hc.Namespace, Name: hc.Name, Ready: "Unknown", NodeManagers: hc.Status.NodeManagers}
	if cond := meta.FindStatusCondition(hc.Status.Conditions, v1alpha1.ConditionReady); cond != nil {
		st.Ready = string(cond.Status)
		if cond.Status != "True" {
			st.Reason = cond.Reason
		}
	}
	body, err := get(ctx, "ws/v1/cluster/nodes", map[string]string{"states": "NEW,RUNNING,UNHEALTHY,DECOMMISSIONING,DECOMMISSIONED,LOST,REBOOTED,SHUTDOWN"})
	if err != nil {
		return nil, err
	}
	if st.Nodes, err = yarn.DecodeNodes(body); err != nil {
		return nil, err
	}
	if body, err = get(ctx, "ws/v1/cluster/scheduler", map[string]string{}); err != nil {
		return nil, err
	}
	if st.Queues, err = yarn.DecodeQueues(body); err != nil {
		return nil, err
	}
	params := map[string]string{}
	if !all {
		params["states"] = strings.Join(unfinishedAppStates, ",")
	}
	if body, err = get(ctx, "ws/v1/cluster/apps", params); err != nil {
		return nil, err
	}
	if st.Applications, err = yarn.DecodeApplications(body); err != nil {
		return nil, err
	}
	return st, nil
}

// WriteClusterStatus prints st as three tables under a line about the cluster.
func WriteClusterStatus(w io.Writer, st *ClusterStatus, now time.Time) error {
	line := fmt.Sprintf("HadoopCluster %s/%s: Ready=%s", st.Namespace, st.Name, st.Ready)
	if st.Reason != "" {
		line += " (" + st.Reason + ")"
	}
	if st.NodeManagers != "" {
		line += ", NodeManagers " + st.NodeManagers
	}
	fmt.Fprintf(w, "%s\n\nNODES\n", line)
	tw := newTable(w)
	fmt.Fprintln(tw, "NODE\tSTATE\tRACK\tCONTAINERS\tMEMORY USED/TOTAL\tVCORES USED/TOTAL\tHEALTH")
	for _, n := range st.Nodes {
		health := n.HealthReport
		if health == "" {
			health = "healthy"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d/%d MiB\t%d/%d\t%s\n", n.ID, n.State, orNone(n.Rack), n.NumContainers,
			n.UsedMemoryMB, n.UsedMemoryMB+n.AvailMemoryMB, n.UsedVCores, n.UsedVCores+n.AvailVCores, health)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprint(w, "\nQUEUES\n")
	tw = newTable(w)
	fmt.Fprintln(tw, "QUEUE\tSTATE\tCAPACITY\tMAX\tUSED\tOF CLUSTER\tAPPS")
	for _, q := range st.Queues {
		fmt.Fprintf(tw, "%s\t%s\t%.1f%%\t%.1f%%\t%.1f%%\t%.1f%%\t%d\n", q.Path, q.State, q.Capacity, q.MaxCapacity,
			q.UsedCapacity, q.AbsoluteCapacity, q.NumApplications)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprint(w, "\nAPPLICATIONS\n")
	if len(st.Applications) == 0 {
		_, err := fmt.Fprintln(w, "No applications.")
		return err
	}
	tw = newTable(w)
	// A finished application reports -1 containers and memory: it holds none.
	fmt.Fprintln(tw, "ID\tNAME\tUSER\tQUEUE\tSTATE\tFINAL\tPROGRESS\tCONTAINERS\tMEMORY\tELAPSED")
	for _, a := range st.Applications {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.0f%%\t%d\t%d MiB\t%s\n", a.ID, a.Name, orNone(a.User), orNone(a.Queue),
			a.State, a.FinalStatus, a.Progress, max(a.RunningContainers, 0), max(a.AllocatedMB, 0), elapsedText(a, now))
	}
	return tw.Flush()
}

// elapsedText is how long an application has run, or ran. With YARN's ACLs on, the
// ResourceManager reports the times of applications a reader may not view as 0,
// which is not shown as a duration.
func elapsedText(a yarn.Application, now time.Time) string {
	switch {
	case a.ElapsedTime > 0:
		return seconds(time.Duration(a.ElapsedTime) * time.Millisecond)
	case !a.Started().IsZero() && !a.Ended():
		return seconds(now.Sub(a.Started()))
	}
	return "<unknown>"
}
