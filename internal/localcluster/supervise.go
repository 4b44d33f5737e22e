package localcluster

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// restartDelay is how long a daemon with Restart waits before it starts again.
const restartDelay = 2 * time.Second

// supervisor starts a node's daemons and, as PID 1 of the node's PID namespace, reaps
// every child, its own and the orphans re-parented to it (containerd's shims, their
// exited containers). os/exec's Wait would race with a reaper that waits for any
// child, so every process of its own, one-shot commands included, is forked here and
// its exit dispatched by pid.
type supervisor struct {
	logDir string
	mu     sync.Mutex
	// procs are the processes started and not yet reaped, by pid.
	procs map[int]*proc
	// daemons are the daemons in start order, with their current process.
	daemons  []*proc
	stopping bool
	// failed names a daemon without Restart that exited.
	failed chan string
}

type proc struct {
	daemon Daemon
	pid    int
	done   chan struct{}
	status syscall.WaitStatus
}

func newSupervisor(logDir string) *supervisor {
	return &supervisor{logDir: logDir, procs: map[int]*proc{}, failed: make(chan string, 16)}
}

// start forks a daemon and lists it.
func (s *supervisor) start(d Daemon) error {
	_, err := s.fork(d, func(p *proc) { s.daemons = append(s.daemons, p) })
	return err
}

// runOnce runs a command to its end, its output in the log directory.
func (s *supervisor) runOnce(d Daemon) error {
	p, err := s.fork(d, nil)
	if err != nil {
		return err
	}
	<-p.done
	if !p.status.Exited() || p.status.ExitStatus() != 0 {
		return fmt.Errorf("%s: %v failed (%v); log: %s", d.Name, d.Argv, p.status, filepath.Join(s.logDir, d.Name+".log"))
	}
	return nil
}

// fork starts d's process and, while the reaper cannot run, lists it by pid and calls
// list, if given, to list it as a daemon: a process that exits at once is then known
// for what it is when it is reaped.
func (s *supervisor) fork(d Daemon, list func(*proc)) (*proc, error) {
	if err := os.MkdirAll(s.logDir, 0o755); err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(filepath.Join(s.logDir, d.Name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	defer null.Close()
	fmt.Fprintf(logFile, "\n==== %s %v\n", time.Now().UTC().Format(time.RFC3339), d.Argv)
	path, err := exec.LookPath(d.Argv[0])
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", d.Name, err)
	}
	// Held over the fork, so that the reaper cannot reap the new process before it is
	// listed.
	s.mu.Lock()
	defer s.mu.Unlock()
	pid, err := syscall.ForkExec(path, d.Argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{null.Fd(), logFile.Fd(), logFile.Fd()},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", d.Name, err)
	}
	p := &proc{daemon: d, pid: pid, done: make(chan struct{})}
	s.procs[pid] = p
	if list != nil {
		list(p)
	}
	log("started %s (pid %d)", d.Name, pid)
	return p, nil
}

// reap waits for every child until quit is closed.
func (s *supervisor) reap(quit <-chan struct{}) {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGCHLD)
	defer signal.Stop(sigs)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
			s.exited(pid, ws)
		}
		select {
		case <-quit:
			return
		case <-sigs:
		case <-tick.C:
		}
	}
}

func (s *supervisor) exited(pid int, ws syscall.WaitStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.procs[pid]
	if !ok {
		return
	}
	delete(s.procs, pid)
	p.status = ws
	close(p.done)
	if s.stopping || !s.isDaemon(p) {
		return
	}
	if !p.daemon.Restart {
		select {
		case s.failed <- p.daemon.Name:
		default:
		}
		return
	}
	log("%s exited (%v): starting it again in %s", p.daemon.Name, ws, restartDelay)
	go s.restart(p)
}

func (s *supervisor) isDaemon(p *proc) bool {
	for _, d := range s.daemons {
		if d == p {
			return true
		}
	}
	return false
}

func (s *supervisor) restart(old *proc) {
	time.Sleep(restartDelay)
	s.mu.Lock()
	stopping := s.stopping
	s.mu.Unlock()
	if stopping {
		return
	}
	_, err := s.fork(old.daemon, func(p *proc) {
		for i, d := range s.daemons {
			if d == old {
				s.daemons[i] = p
			}
		}
	})
	if err != nil {
		log("%v", err)
	}
}

// stopAll sends TERM to each daemon still running, last started first, and KILL
// after 20 s.
func (s *supervisor) stopAll() {
	s.mu.Lock()
	s.stopping = true
	daemons := append([]*proc(nil), s.daemons...)
	s.mu.Unlock()
	for i := len(daemons) - 1; i >= 0; i-- {
		p := daemons[i]
		select {
		case <-p.done:
			continue
		default:
		}
		_ = syscall.Kill(p.pid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(20 * time.Second):
			log("killing %s (pid %d), still there after 20 s", p.daemon.Name, p.pid)
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
			<-p.done
		}
		log("stopped %s", p.daemon.Name)
	}
}
