// Command network measures ingest at several rates of the data network on the local
// three-node cluster (`make bench-network`).
//
// Ceph's public network is on the data network there (Rook's Multus provider), so
// every byte a client writes to an OSD on another node, and every replica an OSD sends
// to its peer, crosses the data network's switch. The program limits what each node
// receives from the switch with `local-cluster data-rate` (tc), declares the rate on
// Rook's public NetworkAttachmentDefinition, where the operator reads it, and runs one
// ingest BenchmarkRun per rate and repetition on a HadoopCluster of its own, through
// the API, as a user would. It prints each run's throughput, the medians, each rate's
// median over the slowest rate's, the bytes the switch received, and what each run
// recorded of its network (status.setup.network).
//
// It sets nothing up but its own namespace: the cluster, the operator and Rook on
// Multus must be running, and it says what to run when they are not. Whatever it
// changes it puts back on exit, also on Ctrl-C: the rate is lifted, the annotation
// removed and the namespace deleted (unless -keep).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// namespace is the benchmark's own, deleted and made again on every run.
const namespace = "bench-network"

type options struct {
	rates        []string
	repetitions  int
	clients      int
	parallelPuts int
	fileSize     resource.Quantity
	runTimeout   time.Duration
	setupTimeout time.Duration
	keep         bool
	allowBusy    bool
}

// defaultRates are the data network's rates, slowest first. 1 and 10 Gbit/s are the
// NICs the studies compare, and unlimited is what the veth pairs and the bridge move
// on this host. 100mbit is there because 1 Gbit/s may already be about what the local
// storage writes: ingest with replication 2 sends each byte across the switch about
// 1.7 times (to the primary OSD when it is on another node, then to its replica on
// another node), so three nodes at 1 Gbit/s receive at most about 225 MB/s of ingest,
// which is in the range of what three OSDs on one host's disk and two shared cores
// keep up with. At 100 Mbit/s the link bounds ingest at about 22 MB/s, far below the
// storage, so the table always has a point where the link alone decides, and the
// shape (growing with the link, then flat) shows even if 1 Gbit/s is already flat.
const defaultRates = "100mbit 1gbit 10gbit unlimited"

// The default run is 3 clients, one per node, each with 2 puts of 256 MiB at once:
// 1.5 GiB. At 1 Gbit/s (at most about 225 MB/s of ingest, above) that is about 7 s of
// puts, plus each put's JVM start, well under a minute; at 100 Mbit/s about 70 s. Two
// puts request one of a node's two cores, half a core each.
const (
	defaultClients      = 3
	defaultParallelPuts = 2
	defaultFileSize     = "256Mi"
)

func main() {
	var o options
	var rates, fileSize string
	flag.StringVar(&rates, "rates", defaultRates, `Rates of the data network, separated by blanks or commas: tc's rates (100mbit, 1gbit, 10gbit) or "unlimited".`)
	flag.IntVar(&o.repetitions, "repetitions", 3, "Runs per rate; each repetition runs every rate once, the order rotated by one rate from the repetition before.")
	flag.IntVar(&o.clients, "clients", defaultClients, "Ingest client pods per run, spread over the nodes (at most one more on any node than on another).")
	flag.IntVar(&o.parallelPuts, "parallel-puts", defaultParallelPuts, "Puts each client runs at once; a client requests 512 MiB, and half a core and 768 MiB per put.")
	flag.StringVar(&fileSize, "file-size", defaultFileSize, "Size of the file each put copies.")
	flag.DurationVar(&o.runTimeout, "run-timeout", 15*time.Minute, "Give up on a run that has not finished by then (also its spec.deadline).")
	flag.DurationVar(&o.setupTimeout, "setup-timeout", 15*time.Minute, "Give up when the StorageBackend and the HadoopCluster are not Ready by then.")
	flag.BoolVar(&o.keep, "keep", false, "Keep the namespace, its HadoopCluster and its BenchmarkRuns afterwards.")
	flag.BoolVar(&o.allowBusy, "allow-busy", false, "Run even though other HadoopClusters share the nodes' cores.")
	flag.Parse()

	var err error
	if o.rates, err = parseRates(rates); err == nil {
		o.fileSize, err = resource.ParseQuantity(fileSize)
	}
	if err == nil {
		err = o.validate()
	}
	if err == nil {
		err = run(o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-network:", err)
		os.Exit(1)
	}
}

func (o options) validate() error {
	switch {
	case o.repetitions < 1:
		return fmt.Errorf("-repetitions must be at least 1")
	case o.clients < 1 || o.clients > 256:
		return fmt.Errorf("-clients must be between 1 and 256")
	case o.parallelPuts < 1 || o.parallelPuts > 64:
		return fmt.Errorf("-parallel-puts must be between 1 and 64")
	case o.fileSize.Sign() <= 0:
		return fmt.Errorf("-file-size must be at least 1 byte")
	case o.runTimeout < time.Minute || o.runTimeout > 720*time.Hour:
		// It is each run's spec.deadline too, which the API takes in this range.
		return fmt.Errorf("-run-timeout must be between 1m and 720h")
	case o.setupTimeout <= 0:
		return fmt.Errorf("-setup-timeout must be positive")
	}
	return nil
}

func run(o options) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	env := newEnvironment()
	step("checking the prerequisites")
	c, err := checkPrerequisites(ctx, env, o.allowBusy)
	if err != nil {
		return err
	}
	defer func() {
		// Read before stop, which cancels ctx too.
		interrupted := ctx.Err() != nil
		// A second Ctrl-C ends the program at once, leaving the rest as it is.
		stop()
		if interrupted {
			step("interrupted: putting the data network back (Ctrl-C again to leave it as it is)")
		}
		if err := restore(c, env, o.keep); err != nil {
			fmt.Fprintln(os.Stderr, "bench-network: putting things back:", err)
		}
	}()

	step(fmt.Sprintf("making namespace %s with a Rook StorageBackend and a HadoopCluster of 3 NodeManagers", namespace))
	if err := setUp(ctx, c, o.setupTimeout); err != nil {
		return err
	}

	var results []result
	var failed []string
	var interrupted error
	runs := schedule(o.rates, o.repetitions)
	for i, s := range runs {
		step(fmt.Sprintf("run %d of %d: data network at %s, repetition %d", i+1, len(runs), s.rate, s.repetition))
		if err := setRate(ctx, c, env, s.rate); err != nil {
			if ctx.Err() == nil {
				return err
			}
			interrupted = err
			break
		}
		r, err := ingest(ctx, c, o, s)
		if err != nil && ctx.Err() != nil {
			interrupted = err
			break
		}
		if err != nil {
			// One failed run leaves the others worth having; the tables show it.
			fmt.Fprintf(os.Stderr, "bench-network: %s: %v\n", r.run, err)
			failed = append(failed, r.run)
		}
		results = append(results, r)
	}

	// An interrupted benchmark still shows the runs it finished.
	if len(results) > 0 {
		if err := report(o, results); err != nil {
			return err
		}
	}
	switch {
	case interrupted != nil:
		return fmt.Errorf("interrupted after %d of %d runs: %w", len(results), len(runs), interrupted)
	case len(failed) > 0:
		return fmt.Errorf("%d of %d runs failed: %s", len(failed), len(results), strings.Join(failed, ", "))
	}
	return nil
}

// report prints the tables: the rates with their repetitions and medians, then every
// run.
func report(o options, results []result) error {
	fmt.Println()
	fmt.Printf("Ingest: %d clients x %d parallel puts of %s each, one BenchmarkRun per rate and repetition.\n\n",
		o.clients, o.parallelPuts, o.fileSize.String())
	if err := writeSummary(os.Stdout, o.rates, o.repetitions, results); err != nil {
		return err
	}
	fmt.Println()
	return writeRuns(os.Stdout, results)
}

// restore lifts the rate, removes the annotation and deletes the namespace, whatever
// happened before, with a context of its own: the run's may be cancelled.
func restore(c client.Client, env environment, keep bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	step("lifting the data network's rate limit and removing " + hadoop.LinkRateAnnotation + " from " + publicNAD.String())
	errs := []error{env.dataRate(ctx, unlimited), annotateLinkRate(ctx, c, "")}
	if keep {
		step(fmt.Sprintf("keeping namespace %s (-keep)", namespace))
	} else {
		step(fmt.Sprintf("deleting namespace %s and waiting until it is gone (its StorageBackend removes its CephFilesystem)", namespace))
		errs = append(errs, deleteNamespace(ctx, c))
	}
	return errors.Join(errs...)
}

func step(s string) { fmt.Printf("[%s] %s\n", time.Now().Format("15:04:05"), s) }
