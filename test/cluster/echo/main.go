// A tiny test workload for the cluster smoke check (test/cluster/smoke.sh), static so it runs
// in a FROM scratch image:
//
//	echo [serve] [PORT]     HTTP server answering "echo from <hostname> <path>"; logs each request
//	echo fetch URL          GET URL until it answers 200 (30 s), print the body
//	echo whoami-apiserver   ask the API server, through the `kubernetes` Service and the pod's
//	                        projected ServiceAccount token, who this pod is (SelfSubjectReview)
package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

const saDir = "/var/run/secrets/kubernetes.io/serviceaccount"

func main() {
	args := os.Args[1:]
	mode := "serve"
	if len(args) > 0 {
		mode, args = args[0], args[1:]
	}
	var err error
	switch mode {
	case "serve":
		port := "8080"
		if len(args) > 0 {
			port = args[0]
		}
		err = serve(port)
	case "fetch":
		if len(args) != 1 {
			err = fmt.Errorf("usage: echo fetch URL")
			break
		}
		c := &http.Client{Timeout: 5 * time.Second}
		err = retry(30*time.Second, func() error { return fetch(c, args[0], nil) })
	case "whoami-apiserver":
		err = retry(30*time.Second, whoami)
	default:
		err = fmt.Errorf("unknown mode %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "echo:", err)
		os.Exit(1)
	}
}

func serve(port string) error {
	host, _ := os.Hostname()
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Printf("echo: %s %s from %s\n", r.Method, r.URL.Path, r.RemoteAddr)
		fmt.Fprintf(w, "echo from %s %s\n", host, r.URL.Path)
	})
	ln, err := net.Listen("tcp", ":"+port)
	if err != nil {
		return err
	}
	fmt.Printf("echo: %s listening on %s\n", host, ln.Addr())
	return http.Serve(ln, nil)
}

// retry runs f until it succeeds or the deadline passes (the network or the
// Service rules may still be settling when a pod starts).
func retry(limit time.Duration, f func() error) error {
	deadline := time.Now().Add(limit)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		fmt.Fprintln(os.Stderr, "echo: retrying:", err)
		time.Sleep(time.Second)
	}
}

func fetch(c *http.Client, url string, req *http.Request) error {
	if req == nil {
		var err error
		if req, err = http.NewRequest(http.MethodGet, url, nil); err != nil {
			return err
		}
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s %s", req.Method, req.URL, res.Status, body)
	}
	fmt.Printf("%s", body)
	return nil
}

func whoami() error {
	host, port := os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT")
	if host == "" {
		return fmt.Errorf("KUBERNETES_SERVICE_HOST is not set")
	}
	token, err := os.ReadFile(saDir + "/token")
	if err != nil {
		return err
	}
	caPEM, err := os.ReadFile(saDir + "/ca.crt")
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return fmt.Errorf("no certificate in %s/ca.crt", saDir)
	}
	c := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	url := "https://" + net.JoinHostPort(host, port) + "/apis/authentication.k8s.io/v1/selfsubjectreviews"
	body, _ := json.Marshal(map[string]string{"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"})
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+string(bytes.TrimSpace(token)))
	req.Header.Set("Content-Type", "application/json")
	fmt.Printf("POST %s\n", url)
	return fetch(c, url, req)
}
