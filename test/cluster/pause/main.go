// The pod sandbox ("pause") process: PID 1 of every pod's shared namespaces.
// It only waits: it exits on SIGTERM/SIGINT and reaps children re-parented to it,
// so zombies never pile up in a pod that shares its PID namespace.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGCHLD)
	for sig := range sigs {
		if sig != syscall.SIGCHLD {
			os.Exit(0)
		}
		for { // several children may exit per SIGCHLD: reap until none is left
			var status syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
