// Command explore prints what an API server's discovery serves and runs a
// dynamic informer of one resource with indexes declared at run time,
// answering lookups in them once it has synced (package
// examples/explore does the work):
//
//	explore --kubeconfig ~/.kube/config --group apps
//	explore --resource deployments.v1.apps --discovery=false \
//		--index 'byImage: field: spec.template.spec.containers[*].image' --lookup byImage=nginx:1.29
//
// `explore --help` lists the forms --resource, --index and --lookup accept.
// It exits 2 on bad flags and 1 when the run fails.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/informer-gen-plus/informer-gen-plus/examples/explore"
)

func main() {
	opts, err := explore.ParseFlags(os.Args[1:], os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return
	case err != nil:
		fmt.Fprintln(os.Stderr, "explore:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err = explore.Run(ctx, opts, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "explore:", err)
		os.Exit(1)
	}
}
