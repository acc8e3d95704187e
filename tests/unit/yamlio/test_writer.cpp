// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

const char* kManifest = R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s, labels: {a: b}}
spec:
  driver: gpu.example.com
  perDeviceNodeSelection: true
  pool: {name: p, generation: 2, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    basic:
      nodeName: n1
      allowMultipleAllocations: true
      attributes: {model: {string: "yes"}, index: {int: 0}, ok: {bool: true}, v: {version: 1.2.3}}
      capacity:
        memory:
          value: 80Gi
          requestPolicy: {default: 1Gi, validRange: {min: 1Gi, max: 80Gi, step: 1Gi}}
      taints: [{key: maintenance, effect: NoSchedule}]
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
  config:
  - opaque: {driver: gpu.example.com, parameters: {kind: GpuConfig, list: [1, 2.5, "x", null, true]}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t}
spec:
  metadata: {labels: {x: z}}
  spec:
    devices:
      requests:
      - name: r
        firstAvailable:
        - {name: a, deviceClassName: gpu.example.com, count: 2, tolerations: [{key: k, operator: Exists}]}
        - {name: b, deviceClassName: gpu.example.com, allocationMode: All}
      constraints: [{matchAttribute: gpu.example.com/model}]
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: i, resources: {requests: {cpu: "1.5"}, claims: [{name: g, request: r}]}}]
  resourceClaims: [{name: g, resourceClaimTemplateName: t}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  replicas: 3
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Service
metadata: {name: d, namespace: team}
spec:
  selector: {app: d, tier: web}
  ports: [{port: 80}]
)";

TEST(Writer, YamlAndJsonRoundTrip)
{
    auto first = yamlio::loadText(kManifest, "in.yaml");
    ASSERT_FALSE(first.diagnostics.hasErrors()) << first.diagnostics.formatAll();
    const std::string yaml = yamlio::toYamlList(first.objects);
    auto second = yamlio::loadText(yaml, "out.yaml");
    ASSERT_FALSE(second.diagnostics.hasErrors()) << second.diagnostics.formatAll() << yaml;
    EXPECT_EQ(yamlio::toYamlList(second.objects), yaml);
    auto third = yamlio::loadText(yamlio::toJsonList(second.objects), "out.json");
    ASSERT_FALSE(third.diagnostics.hasErrors()) << third.diagnostics.formatAll();
    EXPECT_EQ(yamlio::toYamlList(third.objects), yaml);
    // Spot checks that values survived, not only the shape.
    const auto& d = third.objects.resourceSlices.at(0).devices.at(0);
    EXPECT_EQ(d.attributes.at("model").stringValue, "yes");
    EXPECT_EQ(d.nodeName, "n1");
    EXPECT_EQ(d.capacity.at("memory").requestPolicy->validRange->step->toString(), "1Gi");
    EXPECT_EQ(third.objects.pods.at(0).spec.containers.at(0).resources.claimRequests.at(0), "r");
    EXPECT_EQ(
        third.objects.pods.at(0).spec.containers.at(0).resources.requests.at("cpu").toString(), "1500m");
    EXPECT_EQ(third.objects.controllers.at(0).replicas, 3);
    EXPECT_EQ(third.objects.services.at(0).meta.key(), "team/d");
    EXPECT_EQ(third.objects.services.at(0).selector, (api::Labels { { "app", "d" }, { "tier", "web" } }));
}

TEST(Writer, KubernetesFieldOrderAndOmitEmpty)
{
    auto r = yamlio::loadText("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                              "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}\n",
        "in.yaml");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    EXPECT_EQ(toYaml(yamlio::toData(r.objects.resourceClaims.at(0))),
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceClaim\n"
        "metadata:\n"
        "  name: c\n"
        "  namespace: default\n"
        "spec:\n"
        "  devices:\n"
        "    requests:\n"
        "    - name: r\n"
        "      exactly:\n"
        "        deviceClassName: gpu\n"
        "        allocationMode: ExactCount\n"
        "        count: 1\n");
}

} // namespace
