# Hadoop-on-Ceph Operator. `make help` lists the targets.
#
# Every tool is pinned in hack/tools/versions.env and built from the package
# registries into $(HCO_CACHE), outside the checkout, so a fresh clone reuses
# what an earlier one built.

SHELL := /usr/bin/env bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

HCO_CACHE ?= $(HOME)/.cache/hadoop-ceph-operator
export HCO_CACHE

include hack/tools/versions.env
include hack/images/images.env

# Go itself comes from the Go module proxy (hack/tools/go.sh, GO_VERSION), ahead of any
# go already on PATH, so that every recipe and script builds with the pinned one.
GO_BIN := $(shell hack/tools/go.sh)
ifeq ($(GO_BIN),)
$(error hack/tools/go.sh could not provide Go $(GO_VERSION); its message above says why)
endif
export PATH := $(GO_BIN):$(PATH)

# Every Go build of the project's here (vet, the tests and Ginkgo's suites, golangci-lint's
# loading, the images' binaries, the local cluster's launcher) uses the same settings as
# the images' static, path-free binaries, so that Go's cache compiles the Kubernetes
# dependency graph once: each other CGO_ENABLED or -trimpath compiles all of it again, a
# few CPU-minutes on a fresh machine. Tests find the checkout from their working
# directory (internal/repo), since -trimpath leaves source names without it. -w leaves
# the debugging information out of what is linked here (tests, tools run with go run),
# which halves a test binary's link (7.4 s to 3.9 s for ./controllers) and changes no
# compiled package; GOFLAGS=... on make's command line brings it back for a debugger.
export CGO_ENABLED := 0
export GOFLAGS := -trimpath -buildvcs=false -ldflags=-w $(GOFLAGS)

BIN := $(HCO_CACHE)/bin
CONTROLLER_GEN := $(BIN)/controller-gen-$(CONTROLLER_GEN_VERSION)
GINKGO := $(BIN)/ginkgo-$(GINKGO_VERSION)
KUSTOMIZE := $(BIN)/kustomize-$(KUSTOMIZE_VERSION)
HELM := $(BIN)/helm-$(HELM_VERSION)
GOLANGCI_LINT := $(BIN)/golangci-lint-$(GOLANGCI_LINT_VERSION)
ENVTEST_ASSETS := $(HCO_CACHE)/k8s/$(KUBERNETES_VERSION)

# Packages whose tests need a kube-apiserver; the rest are plain unit tests.
ENVTEST_PKGS := ./controllers/... ./api/... ./internal/plugin/...

##@ General

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"} /^[a-zA-Z0-9_-]+:.*##/ {printf "  \033[36m%-18s\033[0m %s\n", $$1, $$2} /^##@/ {printf "\n\033[1m%s\033[0m\n", substr($$0, 5)}' $(MAKEFILE_LIST)

##@ Development

.PHONY: generate
generate: $(CONTROLLER_GEN) ## Generate DeepCopy methods for the API types.
	$(CONTROLLER_GEN) object paths=./api/...

.PHONY: manifests
manifests: $(CONTROLLER_GEN) ## Generate CRDs (with field descriptions, for kubectl explain), RBAC and the API reference (docs/api).
	$(CONTROLLER_GEN) crd rbac:roleName=hadoop-ceph-operator-manager \
		paths=./api/... paths=./controllers/... \
		output:crd:artifacts:config=config/crd/bases \
		output:rbac:artifacts:config=config/rbac
	hack/sync-chart.sh
	go run ./hack/apiref config/crd/bases docs/api

.PHONY: fmt
fmt: ## Run go fmt.
	go fmt ./...

.PHONY: vet
vet: ## Run go vet.
	go vet ./...

# Extra flags of golangci-lint run; .ci/run, which lints in the background on idle CPU
# alone, lifts .golangci.yml's timeout with --timeout=0.
LINT_FLAGS ?=

.PHONY: lint
lint: $(GOLANGCI_LINT) ## Run golangci-lint.
	$(GOLANGCI_LINT) run $(LINT_FLAGS) ./...

.PHONY: tools
tools: ## Build every pinned developer tool into $(HCO_CACHE)/bin.
	hack/tools/install.sh

$(CONTROLLER_GEN):
	hack/tools/install.sh controller-gen
$(GINKGO):
	hack/tools/install.sh ginkgo
$(KUSTOMIZE):
	hack/tools/install.sh kustomize
$(HELM):
	hack/tools/install.sh helm
$(GOLANGCI_LINT):
	hack/tools/install.sh golangci-lint
# kubectl alone, for `kubectl kustomize` in the chart tests, without the rest of envtest.
$(ENVTEST_ASSETS)/kubectl:
	hack/tools/envtest-assets.sh kubectl >/dev/null

.PHONY: envtest-assets
envtest-assets: ## Build kube-apiserver, etcd and kubectl for envtest (cached).
	hack/tools/envtest-assets.sh >/dev/null

.PHONY: envtest-env
envtest-env: envtest-assets ## Print the exports that let `go test` find envtest assets, Rook's CRDs and the PodMonitor CRD.
	@echo "export KUBEBUILDER_ASSETS=$(ENVTEST_ASSETS)"
	@echo "export ROOK_CRDS=$$(hack/rook-crds.sh)"
	@echo "export PROMETHEUS_CRDS=$$(hack/prometheus-crds.sh)"

##@ Test

# The connector's tests wait on Ceph and on JVMs for much of their time, and the Go
# tests on the API server: run side by side, each target's output printed whole when it
# ends.
.PHONY: test
test: ## Set up everything a fresh machine needs, then run every test.
	$(MAKE) --no-print-directory -j2 --output-sync=target test-connector test-go test-hack

.PHONY: test-hack
test-hack: ## Tests of the Python in hack/ (the benchmark reports' record readers and renderers, their section writer, the readers of the tools' output, and the two benchmarks' probes).
	cd hack && python3 -m unittest -v bench_cluster_report_test bench_datapath_report_test bench_datapath_parse_test bench_cluster_probe_test bench_datapath_probe_test benchdoc_test

.PHONY: test-go
test-go: generate manifests vet envtest-assets $(HELM) ## Operator tests: unit, chart and envtest suites.
	hack/verify-generated.sh
	KUBEBUILDER_ASSETS=$(ENVTEST_ASSETS) ROOK_CRDS=$$(hack/rook-crds.sh) PROMETHEUS_CRDS=$$(hack/prometheus-crds.sh) HELM=$(HELM) \
		KUBECTL=$(ENVTEST_ASSETS)/kubectl go test -count=1 ./... -timeout 20m

.PHONY: test-unit
test-unit: ## Operator unit tests only (no API server, no chart).
	go test -count=1 $$(go list ./... | grep -v -e '/controllers$$' -e /api/ -e /test/ -e /internal/plugin)

.PHONY: test-chart
test-chart: manifests $(HELM) $(ENVTEST_ASSETS)/kubectl ## Helm chart: lint, rendered-template tests, and config/default's parity with it.
	HELM=$(HELM) KUBECTL=$(ENVTEST_ASSETS)/kubectl go test -count=1 ./test/chart/...

.PHONY: helm-lint
helm-lint: $(HELM) ## helm lint --strict on the chart.
	$(HELM) lint --strict charts/hadoop-ceph-operator

.PHONY: test-envtest
test-envtest: envtest-assets ## Operator envtest suites only.
	KUBEBUILDER_ASSETS=$(ENVTEST_ASSETS) ROOK_CRDS=$$(hack/rook-crds.sh) PROMETHEUS_CRDS=$$(hack/prometheus-crds.sh) \
		go test -count=1 $(ENVTEST_PKGS) -timeout 20m

.PHONY: test-connector
test-connector: ## CephFS connector: Hadoop's contract suites, TeraSort and YARN on a local Ceph.
	hack/test-connector.sh

# A regular expression of the image test's checks to run alone (Ginkgo's --focus).
IMAGE_TEST_FOCUS ?=

# As root: the test mounts the image's volumes and chroots into it. HCO_KEEP_CEPH=1 leaves a
# Ceph it started running, HCO_KEEP_TEST_WORK=1 its work directory (docs/images.md).
.PHONY: test-image
test-image: ## The Hadoop image as the operator runs it, on the local Ceph (test/images; builds the image and starts the Ceph when missing; IMAGE_TEST_FOCUS=...).
	go test -tags imagetest -count=1 -timeout 30m -v -run '^TestHadoopImage$$' ./test/images \
		-args -ginkgo.v -ginkgo.no-color $(if $(IMAGE_TEST_FOCUS),-ginkgo.focus='$(IMAGE_TEST_FOCUS)')

##@ Local Ceph

.PHONY: ceph-up
ceph-up: ## Start the single-host Ceph used by the connector tests.
	hack/ceph/up.sh

.PHONY: ceph-down
ceph-down: ## Stop the single-host Ceph and remove its data.
	hack/ceph/down.sh

##@ Local Rook

.PHONY: rook-up
rook-up: ## Start Rook v1.18 and a one-node Ceph 18.2 in the local Kubernetes (needs cluster-up).
	hack/rook/up.sh

.PHONY: rook-down
rook-down: ## Remove the local Rook, its Ceph and its data.
	hack/rook/down.sh

##@ Local cluster, demo and end-to-end tests

.PHONY: demo
demo: ## Local Kubernetes + Rook + images, the operator via Helm, and a 1M-row TeraSort on an EC pool (HCO_DEMO_STORAGE=external: the local Ceph).
	hack/demo/run.sh

.PHONY: demo-down
demo-down: ## Remove the local Rook, stop the local Kubernetes and the local Ceph (binaries and images stay cached).
	hack/local/down.sh

.PHONY: cluster-up
cluster-up: ## Start the local single-node Kubernetes (etcd, control plane, kubelet, containerd).
	hack/cluster/up.sh

# Nodes of the local cluster for cluster-test (the first is this host, the others
# workers in namespaces of their own: docs/local-cluster.md).
CLUSTER_TEST_NODES ?= 3

.PHONY: cluster-test
cluster-test: $(GINKGO) ## Start a local cluster of CLUSTER_TEST_NODES nodes and check it works as several machines: pods, Services, DNS, logs/exec and NetworkPolicy across nodes, a worker lost and back.
	HCO_CLUSTER_NODES=$(CLUSTER_TEST_NODES) hack/cluster/up.sh
	hack/cluster/netpol.sh up
	source hack/cluster/env.sh && export KUBECONFIG LOCAL_CLUSTER && \
		BUSYBOX_IMAGE=$$(hack/cluster/busybox-image.sh) && \
		REGISTRY_IMAGE=$$CLUSTER_REGISTRY/$${BUSYBOX_IMAGE#localhost/} && \
		hack/images/push.sh --insecure $$CLUSTER_REGISTRY --archive $$CLUSTER_DIR/images/busybox.tar $${BUSYBOX_IMAGE#localhost/} && \
		BUSYBOX_IMAGE=$$BUSYBOX_IMAGE REGISTRY_IMAGE=$$REGISTRY_IMAGE HCO_CLUSTER_NODES=$(CLUSTER_TEST_NODES) \
		KUBECTL=$(ENVTEST_ASSETS)/kubectl $(GINKGO) -tags cluster --timeout 20m --no-color -v ./test/cluster

.PHONY: cluster-down
cluster-down: ## Stop the local Kubernetes and remove its state.
	hack/cluster/down.sh

.PHONY: images
images: ## Build the operator, Hadoop, Ceph and pause images without a container engine.
	hack/images/build.sh all

# Registry of images-push, such as registry.example.com/hadoop; INSECURE=1 for plain HTTP.
REGISTRY ?=
INSECURE ?=

.PHONY: images-push
images-push: ## Push the images `make images` built to REGISTRY (crane, no container engine; INSECURE=1 for plain HTTP).
	@[[ -n "$(REGISTRY)" ]] || { echo "make images-push REGISTRY=host[:port][/path] [INSECURE=1]" >&2; exit 2; }
	hack/images/push.sh $(if $(INSECURE),--insecure) $(REGISTRY) all

.PHONY: docker-build
docker-build: ## Build the operator, Hadoop and Ceph images with a container engine (docker buildx).
	docker build -f images/operator/Dockerfile -t $(OPERATOR_IMAGE) .
	docker build -f images/hadoop/Dockerfile -t $(HADOOP_IMAGE) .
	docker build -f images/ceph/Dockerfile -t $(CEPH_IMAGE) .

# Ginkgo label filter of `make e2e`: '!rook' runs the external storage path alone,
# '!external' the Rook path (both keep the operator's specs they build on); empty runs
# the whole story.
E2E_LABEL_FILTER ?=
# A regular expression of spec texts to run alone (Ginkgo's --focus); the specs of the
# ordered story it skips leave out what they would have set up.
E2E_FOCUS ?=
# The suite's whole output; when it fails, its failures are printed again at the end,
# where a log's tail shows them.
E2E_LOG ?= $(HCO_CACHE)/logs/e2e.log

# The e2e suite runs on three nodes (test/e2e's suiteNodes): a mon, an OSD and a
# NodeManager's place on each.
.PHONY: e2e
e2e: $(GINKGO) $(HELM) plugin ## End-to-end suite on a local Kubernetes of three nodes, with the local Ceph and Rook (starts what it needs; E2E_LABEL_FILTER=...).
	HCO_CLUSTER_NODES=3 hack/local/up.sh
	mkdir -p $(dir $(E2E_LOG))
	source hack/cluster/env.sh && export KUBECONFIG LOCAL_CLUSTER && \
		PATH=$(CURDIR)/bin:$$PATH KUBECTL=$(ENVTEST_ASSETS)/kubectl HELM=$(HELM) \
		$(GINKGO) -tags e2e --timeout 85m --no-color -v --label-filter='$(E2E_LABEL_FILTER)' \
		$(if $(E2E_FOCUS),--focus='$(E2E_FOCUS)') ./test/e2e 2>&1 | tee $(E2E_LOG) || \
		{ hack/e2e-failures.sh $(E2E_LOG); exit 1; }

##@ Benchmarks

.PHONY: bench-operator
bench-operator: manifests envtest-assets ## Operator at scale on envtest: 200 HadoopClusters, API writes at rest, peak memory.
	KUBEBUILDER_ASSETS=$(ENVTEST_ASSETS) ROOK_CRDS=$$(hack/rook-crds.sh) \
		go run ./test/bench/operator $(BENCH_OPERATOR_ARGS)

.PHONY: bench-datapath
bench-datapath: ## TeraSort, TestDFSIO and raw overhead: CephFS vs HDFS vs file:// (long).
	hack/bench-datapath.sh

.PHONY: bench-cluster
bench-cluster: ## TeraSort through a BenchmarkRun on the local cluster vs local-mode MapReduce, side by side (long).
	hack/bench-cluster.sh

.PHONY: bench-network
bench-network: ## Ingest BenchmarkRuns on the local three nodes with the data network at 100 Mbit/s, 1 and 10 Gbit/s and unlimited (BENCH_NETWORK_ARGS=-h lists the flags).
	go run ./test/bench/network $(BENCH_NETWORK_ARGS)

##@ Build and run

.PHONY: build
build: generate plugin ## Build the manager binary and the kubectl plugin into bin/.
	CGO_ENABLED=0 go build -trimpath -o bin/manager ./cmd

.PHONY: plugin
plugin: ## Build the kubectl plugin into bin/kubectl-hadoopceph (put bin/ on PATH for `kubectl hadoopceph`).
	CGO_ENABLED=0 go build -trimpath -o bin/kubectl-hadoopceph ./cmd/kubectl-hadoopceph

.PHONY: dist
dist: manifests $(HELM) ## Package the chart and the kubectl plugin (linux and darwin, amd64 and arm64) into dist/.
	HELM=$(HELM) hack/dist.sh

.PHONY: run
run: generate manifests ## Run the manager against the cluster of the current kubeconfig.
	go run ./cmd

.PHONY: install
install: manifests ## Install the CRDs into the cluster of the current kubeconfig.
	kubectl apply --server-side -f config/crd/bases

.PHONY: uninstall
uninstall: manifests ## Remove the CRDs (and with them every StorageBackend, HadoopCluster and BenchmarkRun object).
	kubectl delete -f config/crd/bases --ignore-not-found
