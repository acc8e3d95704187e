// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"

using namespace drasim;

namespace {

yamlio::LoadResult load(const std::string& text)
{
    return yamlio::loadText(text, "t.yaml");
}

TEST(Loader, ReadsTheBasicScenarioDump)
{
    auto r = yamlio::loadPaths({ std::string(DRASIM_SOURCE_DIR) + "/scenarios/basic/cluster.yaml" });
    EXPECT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    EXPECT_EQ(r.objects.nodes.size(), 2u);
    EXPECT_EQ(r.objects.resourceSlices.size(), 2u);
    EXPECT_EQ(r.objects.deviceClasses.size(), 1u);
    ASSERT_FALSE(r.objects.resourceSlices.empty());
    EXPECT_EQ(r.objects.resourceSlices[0].devices.size(), 4u);
    EXPECT_EQ(r.objects.nodes[0].allocatable.at("cpu").toString(), "94");
}

TEST(Loader, V1SliceFieldsAndPositions)
{
    auto r = load(R"(# comment
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: node-1-gpu
  managedFields: [{manager: kubelet}]
  resourceVersion: "123"
spec:
  driver: gpu.nvidia.com
  nodeName: node-1
  pool: {name: node-1, generation: 3, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      productName: {string: NVIDIA H100 80GB HBM3}
      driverVersion: {version: 580.105.8}
      index: {int: 0}
      mig: {bool: false}
      resource.kubernetes.io/pcieRoot: {string: pci0000:10}
    capacity:
      memory: {value: 1.5Gi}
)");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    ASSERT_EQ(r.objects.resourceSlices.size(), 1u);
    const auto& s = r.objects.resourceSlices[0];
    EXPECT_EQ(s.meta.name, "node-1-gpu");
    EXPECT_EQ(s.meta.pos.line, 2);
    EXPECT_EQ(s.meta.pos.column, 1);
    EXPECT_EQ(s.driver, "gpu.nvidia.com");
    EXPECT_EQ(s.pool.generation, 3);
    EXPECT_EQ(s.nodeName, "node-1");
    ASSERT_EQ(s.devices.size(), 1u);
    const auto& d = s.devices[0];
    EXPECT_EQ(d.pos.line, 13);
    EXPECT_EQ(d.pos.column, 5);
    EXPECT_EQ(d.attributes.at("index").type, api::DeviceAttribute::Type::Int);
    EXPECT_EQ(d.attributes.at("mig").type, api::DeviceAttribute::Type::Bool);
    EXPECT_EQ(d.attributes.at("driverVersion").type, api::DeviceAttribute::Type::Version);
    EXPECT_EQ(d.attributes.at("driverVersion").stringValue, "580.105.8");
    EXPECT_EQ(d.attributes.at("resource.kubernetes.io/pcieRoot").stringValue, "pci0000:10");
    // Stored as a cluster would hand it to the scheduler: the canonical int64 form.
    EXPECT_EQ(d.capacity.at("memory").value.toString(), "1536Mi");
    EXPECT_EQ(d.capacity.at("memory").value.kubernetesAsInt64(), 1610612736);
}

TEST(Loader, V1beta1IsConvertedToV1)
{
    auto r = load(R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  allNodes: true
  pool: {name: p, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    basic:
      attributes: {model: {string: A}}
      capacity: {memory: {value: 16Gi}}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata: {name: t, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: "device.attributes['gpu.example.com'].model == 'A'"}
        count: 2
      - name: any
        firstAvailable:
        - {name: big, deviceClassName: big.example.com}
        - {name: small, deviceClassName: small.example.com, allocationMode: All}
)");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    ASSERT_EQ(r.objects.resourceSlices.size(), 1u);
    EXPECT_EQ(r.objects.resourceSlices[0].allNodes, true);
    EXPECT_EQ(r.objects.resourceSlices[0].devices[0].capacity.at("memory").value.toString(), "16Gi");
    ASSERT_EQ(r.objects.resourceClaimTemplates.size(), 1u);
    const auto& t = r.objects.resourceClaimTemplates[0];
    EXPECT_EQ(t.meta.key(), "ml/t");
    ASSERT_EQ(t.spec.requests.size(), 2u);
    ASSERT_TRUE(t.spec.requests[0].exactly.has_value());
    EXPECT_EQ(t.spec.requests[0].exactly->deviceClassName, "gpu.example.com");
    EXPECT_EQ(t.spec.requests[0].exactly->count, 2);
    EXPECT_EQ(t.spec.requests[0].exactly->allocationMode, "ExactCount");
    ASSERT_EQ(t.spec.requests[0].exactly->selectors.size(), 1u);
    const auto& sel = t.spec.requests[0].exactly->selectors[0];
    EXPECT_EQ(sel.pos.line, 24);
    EXPECT_EQ(sel.pos.column, 30); // inside the quotes: column of the first expression character
    EXPECT_FALSE(t.spec.requests[1].exactly.has_value());
    ASSERT_EQ(t.spec.requests[1].firstAvailable.size(), 2u);
    EXPECT_EQ(t.spec.requests[1].firstAvailable[1].spec.allocationMode, "All");
    EXPECT_EQ(t.spec.requests[1].firstAvailable[0].spec.count, 1); // defaulted
}

TEST(Loader, V1beta2AndV1ClaimsWithStatus)
{
    auto r = load(R"(apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: {name: c, namespace: default, deletionTimestamp: "2026-01-01T00:00:00Z"}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.nvidia.com, allocationMode: ExactCount, count: 1}
    constraints:
    - {requests: [gpu], matchAttribute: resource.kubernetes.io/pcieRoot}
    config:
    - requests: [gpu]
      opaque:
        driver: gpu.nvidia.com
        parameters: {apiVersion: resource.nvidia.com/v1beta1, kind: GpuConfig, sharing: {strategy: TimeSlicing}}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.nvidia.com, pool: node-1, device: gpu-0}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {key: metadata.name, operator: In, values: [node-1]}
  reservedFor:
  - {resource: pods, name: p, uid: "1"}
)");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    ASSERT_EQ(r.objects.resourceClaims.size(), 1u);
    const auto& c = r.objects.resourceClaims[0];
    EXPECT_TRUE(c.deleting);
    ASSERT_TRUE(c.allocation.has_value());
    EXPECT_EQ(c.allocation->results[0].device, "gpu-0");
    ASSERT_TRUE(c.allocation->nodeSelector.has_value());
    EXPECT_EQ(c.allocation->nodeSelector->terms[0].matchFields[0].values[0], "node-1");
    EXPECT_EQ(c.reservedFor[0].name, "p");
    EXPECT_EQ(c.spec.constraints[0].matchAttribute, "resource.kubernetes.io/pcieRoot");
    const DataValue& params = c.spec.config[0].opaque.parameters;
    ASSERT_TRUE(params.isMap());
    EXPECT_EQ(params.find("sharing")->find("strategy")->asString(), "TimeSlicing");
}

TEST(Loader, PodsAndWorkloadsFromAKubectlDump)
{
    auto r = load(R"(apiVersion: v1
kind: List
metadata: {resourceVersion: ""}
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: p
    namespace: team
    annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}"}
  spec:
    containers:
    - name: main
      image: busybox
      command: [sleep, "3600"]
      resources:
        requests: {cpu: 500m, memory: 1Gi}
        claims: [{name: gpu}]
    resourceClaims:
    - {name: gpu, resourceClaimTemplateName: one-gpu}
    volumes: [{name: v, emptyDir: {}}]
    tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  status:
    phase: Pending
    hostIP: 10.0.0.1
- apiVersion: batch/v1
  kind: Job
  metadata: {name: train}
  spec:
    parallelism: 4
    template:
      metadata: {labels: {app: train}}
      spec:
        restartPolicy: Never
        containers: [{name: c, image: x}]
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings}
- apiVersion: v1
  kind: Service
  metadata: {name: svc, namespace: team}
  spec:
    selector: {app: train}
    ports: [{port: 80, targetPort: 8080, protocol: TCP}]
    type: ClusterIP
    clusterIP: 10.96.0.12
  status: {loadBalancer: {}}
)");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    ASSERT_EQ(r.objects.pods.size(), 1u);
    const auto& p = r.objects.pods[0];
    EXPECT_EQ(p.meta.key(), "team/p");
    EXPECT_EQ(p.meta.pos.line, 5);
    EXPECT_EQ(p.meta.pos.column, 3);
    EXPECT_EQ(p.phase, "Pending");
    EXPECT_EQ(p.spec.containers[0].resources.requests.at("cpu").milliValue(), 500);
    EXPECT_EQ(p.spec.resourceClaims[0].resourceClaimTemplateName, "one-gpu");
    ASSERT_EQ(r.objects.controllers.size(), 1u);
    EXPECT_EQ(r.objects.controllers[0].meta.key(), "default/train");
    EXPECT_EQ(r.objects.controllers[0].parallelism, 4);
    EXPECT_EQ(r.objects.controllers[0].completions, 4);
    // The Service is read for its selector; its ports and addresses are accepted and dropped.
    ASSERT_EQ(r.objects.services.size(), 1u);
    EXPECT_EQ(r.objects.services[0].meta.key(), "team/svc");
    EXPECT_EQ(r.objects.services[0].selector, (drasim::api::Labels { { "app", "train" } }));
    // A kind drasim does not model is skipped with a warning naming file and line.
    ASSERT_EQ(r.diagnostics.all().size(), 1u);
    EXPECT_EQ(r.diagnostics.all()[0].format(),
        "t.yaml:36:3: warning: ConfigMap settings: skipped: drasim does not model kind \"ConfigMap\" (v1)");
}

TEST(Loader, JobFieldsTheSimulatorDoesNotModelAreWarnedAboutWhereTheyAre)
{
    auto r = load(R"(apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  completions: 4
  completionMode: Indexed
  backoffLimitPerIndex: 1
  maxFailedIndexes: 2
  activeDeadlineSeconds: 600
  suspend: true
  managedBy: example.com/queue
  podFailurePolicy:
    rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]
  successPolicy:
    rules: [{succeededCount: 1}]
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
)");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:6:19: warning: Job default/train: spec.completionMode: Indexed is not simulated: pods get no "
        "completion index and are counted as NonIndexed\n"
        "t.yaml:7:25: warning: Job default/train: spec.backoffLimitPerIndex: not simulated: failures count "
        "against backoffLimit for the whole Job\n"
        "t.yaml:8:21: warning: Job default/train: spec.maxFailedIndexes: not simulated: failures count "
        "against "
        "backoffLimit for the whole Job\n"
        "t.yaml:9:26: warning: Job default/train: spec.activeDeadlineSeconds: not simulated: the Job is not "
        "failed when its deadline passes\n"
        "t.yaml:10:12: warning: Job default/train: spec.suspend: true is not simulated: the Job starts when "
        "it "
        "arrives\n"
        "t.yaml:11:14: warning: Job default/train: spec.managedBy: not simulated: the Job is run as the "
        "built-in "
        "Job controller runs it\n"
        "t.yaml:15:5: warning: Job default/train: spec.successPolicy: not simulated: the Job succeeds when "
        "completions pods have succeeded\n");
}

TEST(Loader, JobFieldsAtTheirDefaultsNeedNoWarning)
{
    auto r = load(R"(apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  completionMode: NonIndexed
  suspend: false
  managedBy: kubernetes.io/job-controller
  podReplacementPolicy: Failed
  ttlSecondsAfterFinished: 100
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
)");
    EXPECT_EQ(r.diagnostics.formatAll(), "");
}

TEST(Loader, PodPlacementFieldsAreReadAndGatedFieldsWarnedAboutWhereTheyAre)
{
    auto r = load(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: x}]
  affinity:
    podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: []}
    podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: []}
  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]
  preemptionPolicy: PreemptLowerPriority
  schedulingGroup: {podGroupName: gang-0}
---
apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
)");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    ASSERT_EQ(r.objects.pods.size(), 1u);
    const auto& spec = r.objects.pods[0].spec;
    ASSERT_EQ(spec.topologySpreadConstraints.size(), 1u);
    EXPECT_EQ(spec.topologySpreadConstraints[0].topologyKey, "zone");
    EXPECT_TRUE(spec.topologySpreadConstraints[0].doNotSchedule);
    EXPECT_TRUE(spec.podAffinity.has_value());
    EXPECT_TRUE(spec.podAntiAffinity.has_value());
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:11:20: warning: Pod default/p: spec.schedulingGroup: dropped: feature gate GenericWorkload "
        "is disabled, so the API server clears this field\n");
}

TEST(Loader, PodFieldsThatAgreeWithTheSimulationNeedNoWarning)
{
    auto r = load(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: x}]
  preemptionPolicy: Never
  topologySpreadConstraints: null
  affinity: {podAffinity: null}
)");
    EXPECT_EQ(r.diagnostics.formatAll(), "");
}

TEST(Loader, ASchedulingGroupHoldsOnlyAPodGroupName)
{
    auto r = load(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: x}]
  schedulingGroup: {podGroupName: 7, podGroup: g}
)");
    EXPECT_EQ(r.diagnostics.formatAll(),
        "t.yaml:6:35: Pod default/p: spec.schedulingGroup.podGroupName: expected a string, got integer 7 "
        "(quote it to make it a string)\n"
        "t.yaml:6:38: Pod default/p: spec.schedulingGroup.podGroup: unknown field \"podGroup\"\n"
        "t.yaml:6:20: warning: Pod default/p: spec.schedulingGroup: dropped: feature gate GenericWorkload is "
        "disabled, so the API server clears this field\n");
}

TEST(Loader, StatefulSetPodManagementPolicy)
{
    auto r = load(R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ordered}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: c, image: x}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: parallel}
spec:
  podManagementPolicy: Parallel
  template:
    spec:
      containers: [{name: c, image: x}]
)");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    ASSERT_EQ(r.objects.controllers.size(), 2u);
    EXPECT_TRUE(r.objects.controllers[0].orderedReady);
    EXPECT_FALSE(r.objects.controllers[1].orderedReady);

    auto bad = load(R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  podManagementPolicy: Ordered
  template:
    spec:
      containers: [{name: c, image: x}]
)");
    EXPECT_EQ(bad.diagnostics.formatAll(),
        "t.yaml:5:24: StatefulSet default/db: spec.podManagementPolicy: Unsupported value: "
        "\"Ordered\": supported values: \"OrderedReady\", \"Parallel\"\n");
}

TEST(Loader, DirectoriesAreReadRecursivelyInSortedOrder)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("drasim-loader-" + std::to_string(::getpid()));
    fs::create_directories(dir / "sub");
    auto write = [](const fs::path& p, const std::string& name) {
        std::ofstream(p) << "apiVersion: v1\nkind: Node\nmetadata: {name: " << name << "}\n";
    };
    write(dir / "b.yaml", "node-b");
    write(dir / "a.yml", "node-a");
    write(dir / "sub" / "c.json", "node-c");
    std::ofstream(dir / "notes.txt") << "not a manifest";
    auto r = yamlio::loadPaths({ dir.string() });
    fs::remove_all(dir);
    EXPECT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    ASSERT_EQ(r.objects.nodes.size(), 3u);
    EXPECT_EQ(r.objects.nodes[0].meta.name, "node-a");
    EXPECT_EQ(r.objects.nodes[1].meta.name, "node-b");
    EXPECT_EQ(r.objects.nodes[2].meta.name, "node-c");
}

TEST(Loader, MissingFileIsAnError)
{
    auto r = yamlio::loadPaths({ "/nonexistent/cluster.yaml" });
    EXPECT_EQ(r.diagnostics.formatAll(),
        "/nonexistent/cluster.yaml: cannot read file: No such file or directory\n");
}

} // namespace

namespace {

// Large `kind: List` dumps are parsed on several threads; the result must not depend on it.
std::string bigList(int nodes, int badIndex)
{
    std::string y = "apiVersion: v1\nitems:\n";
    for (int i = 0; i < nodes; ++i) {
        y += "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: node-" + std::to_string(i)
            + "\n    labels: {zone: zone-a, rack: r" + std::to_string(i % 40)
            + "}\n  status:\n    capacity: {cpu: \"64\", memory: 512Gi, pods: \"110\"}\n"
              "    allocatable: {cpu: \"62\", memory: 500Gi, pods: \"110\"}\n";
        if (i == badIndex)
            y += "  colour: red\n";
    }
    y += "kind: List\nmetadata:\n  resourceVersion: \"\"\n";
    return y;
}

TEST(Loader, ParallelListParsingMatchesSerial)
{
    for (int bad : { -1, 7, 4000 }) {
        const std::string text = bigList(6000, bad);
        ASSERT_GT(text.size(), size_t(1) << 20);
        yamlio::LoadOptions serialOptions;
        serialOptions.parallel = false;
        auto serial = yamlio::loadText(text, "big.yaml", serialOptions);
        auto parallel = yamlio::loadText(text, "big.yaml");
        EXPECT_EQ(parallel.diagnostics.formatAll(), serial.diagnostics.formatAll());
        ASSERT_EQ(parallel.objects.nodes.size(), serial.objects.nodes.size());
        EXPECT_EQ(parallel.objects.nodes.size(), bad < 0 ? 6000u : 5999u);
        for (size_t i = 0; i < serial.objects.nodes.size(); i += 997) {
            EXPECT_EQ(parallel.objects.nodes[i].meta.name, serial.objects.nodes[i].meta.name);
            EXPECT_EQ(parallel.objects.nodes[i].meta.pos.line, serial.objects.nodes[i].meta.pos.line);
        }
    }
    // A YAML error anywhere falls back to the serial parse and its exact message.
    std::string broken = bigList(6000, -1);
    broken.insert(
        broken.find("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: node-3000"), "- [unclosed\n");
    yamlio::LoadOptions serialOptions;
    serialOptions.parallel = false;
    EXPECT_EQ(yamlio::loadText(broken, "big.yaml").diagnostics.formatAll(),
        yamlio::loadText(broken, "big.yaml", serialOptions).diagnostics.formatAll());
}

} // namespace
