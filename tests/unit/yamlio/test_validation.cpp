// SPDX-License-Identifier: Apache-2.0
// API-server validation of DRA objects (dra-semantics.md §2.5, §3.14): each invalid input gives
// the asserted message, at the asserted position.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"

using namespace drasim;

namespace {

std::string slice(const std::string& devices, const std::string& extraSpec = "  nodeName: n1\n")
{
    return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: "
           "gpu.example.com\n"
           "  pool: {name: p, resourceSliceCount: 1}\n"
        + extraSpec + "  devices:\n" + devices;
}

std::string claim(const std::string& devicesBody)
{
    return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n  devices:\n"
        + devicesBody;
}

std::string betaClaim(const std::string& devicesBody)
{
    return "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n  "
           "devices:\n"
        + devicesBody;
}

std::string repeat(int n, const std::function<std::string(int)>& f)
{
    std::string out;
    for (int i = 0; i < n; ++i)
        out += f(i);
    return out;
}

struct Case
{
    const char* name;
    std::string yaml;
    std::string expected; ///< the first error, formatted
};

class ValidationTest : public ::testing::TestWithParam<Case>
{
};

TEST_P(ValidationTest, ReportsLikeTheApiServer)
{
    auto r = yamlio::loadText(GetParam().yaml, "t.yaml");
    ASSERT_TRUE(r.diagnostics.hasErrors()) << GetParam().name;
    std::string first;
    for (const auto& d : r.diagnostics.all())
        if (d.severity == Severity::Error) {
            first = d.format();
            break;
        }
    EXPECT_EQ(first, GetParam().expected) << GetParam().name << "\nall:\n" << r.diagnostics.formatAll();
}

const std::string kGpu = "  - name: gpu-0\n";

INSTANTIATE_TEST_SUITE_P(Dra, ValidationTest,
    ::testing::Values(Case { "unknown field", slice(kGpu + "    colour: red\n"),
                          "t.yaml:10:5: ResourceSlice s: spec.devices[0].colour: unknown field \"colour\"" },
        Case { "bad device name", slice("  - name: GPU_0\n"),
            "t.yaml:9:11: ResourceSlice s: spec.devices[0].name: Invalid value: \"GPU_0\": a lowercase RFC "
            "1123 "
            "label must consist of lower case alphanumeric characters or '-', and must start and end with an "
            "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')" },
        Case { "missing driver",
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  nodeName: "
            "n1\n"
            "  pool: {name: p, resourceSliceCount: 1}\n",
            "t.yaml:5:3: ResourceSlice s: spec.driver: Required value" },
        Case { "slice without spec",
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n",
            "t.yaml:1:1: ResourceSlice s: spec.driver: Required value" },
        Case { "pool without count",
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: "
            "gpu.example.com\n  pool: {name: p}\n  nodeName: n1\n",
            "t.yaml:6:9: ResourceSlice s: spec.pool.resourceSliceCount: Invalid value: 0: must be greater "
            "than "
            "zero" },
        Case { "129 devices",
            slice(repeat(129, [](int i) { return "  - name: d" + std::to_string(i) + "\n"; })),
            "t.yaml:9:3: ResourceSlice s: spec.devices: Too many: 129: must have at most 128 items" },
        Case { "65 devices with taints",
            slice(repeat(65,
                [](int i) {
                    return "  - {name: d" + std::to_string(i) + ", taints: [{key: k, effect: NoSchedule}]}\n";
                })),
            "t.yaml:9:3: ResourceSlice s: spec.devices: Too many: 65: must have at most 64 items" },
        Case { "33 attributes",
            slice(kGpu + "    attributes:\n"
                + repeat(33, [](int i) { return "      a" + std::to_string(i) + ": {int: 1}\n"; })),
            "t.yaml:9:5: ResourceSlice s: spec.devices[0]: Invalid value: 33: the total number of attributes "
            "and capacities must not exceed 32" },
        Case { "two attribute values", slice(kGpu + "    attributes: {model: {string: a, int: 1}}\n"),
            "t.yaml:10:25: ResourceSlice s: spec.devices[0].attributes[model]: Invalid value: exactly one "
            "value must "
            "be specified" },
        Case { "version not semver", slice(kGpu + "    attributes: {driverVersion: {version: v580.1}}\n"),
            "t.yaml:10:43: ResourceSlice s: spec.devices[0].attributes[driverVersion].version: Invalid "
            "value: "
            "\"v580.1\": must be a string compatible with semver.org spec 2.0.0" },
        Case { "attribute name", slice(kGpu + "    attributes: {1st: {int: 1}}\n"),
            "t.yaml:10:18: ResourceSlice s: spec.devices[0].attributes: Invalid value: \"1st\": a valid "
            "C "
            "identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
            "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "
            "'[A-Za-z_][A-Za-z0-9_]*')" },
        Case { "attribute name part", slice(kGpu + "    attributes: {nvidia.com/gpu-model: {string: a}}\n"),
            "t.yaml:10:18: ResourceSlice s: spec.devices[0].attributes: Invalid value: \"gpu-model\": a "
            "valid "
            "C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
            "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "
            "'[A-Za-z_][A-Za-z0-9_]*')" },
        Case { "attribute domain", slice(kGpu + "    capacity: {Bad_Domain/memory: {value: 1}}\n"),
            "t.yaml:10:16: ResourceSlice s: spec.devices[0].capacity: Invalid value: \"Bad_Domain\": a "
            "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
            "and "
            "must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
            "validation "
            "is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')" },
        Case { "attribute name too long",
            slice(kGpu + "    attributes: {a" + std::string(32, 'b') + ": {int: 1}}\n"),
            "t.yaml:10:18: ResourceSlice s: spec.devices[0].attributes: Too long: must have at most 32 "
            "bytes" },
        Case { "request policy without multi-allocation",
            slice(kGpu + "    capacity: {memory: {value: 8Gi, requestPolicy: {default: 1Gi}}}\n"),
            "t.yaml:10:52: ResourceSlice s: spec.devices[0].capacity[memory].requestPolicy: Forbidden: "
            "allowMultipleAllocations must be true" },
        Case { "node selection twice", slice(kGpu, "  nodeName: n1\n  allNodes: true\n"),
            "t.yaml:8:13: ResourceSlice s: spec: Invalid value: \"{`nodeName`, `allNodes`}\": exactly one of "
            "`nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple "
            "fields "
            "are set" },
        Case { "no node selection", slice(kGpu, ""),
            "t.yaml:5:3: ResourceSlice s: spec: Required value: exactly one of `nodeName`, `nodeSelector`, "
            "`allNodes`, `perDeviceNodeSelection` is required" },
        Case { "devices and counters",
            slice(kGpu, "  nodeName: n1\n  sharedCounters: [{name: cs, counters: {mem: {value: 1}}}]\n"),
            "t.yaml:8:19: ResourceSlice s: spec: Invalid value: \"\": only one of `sharedCounters` or "
            "`devices` "
            "is allowed" },
        Case { "duplicate device", slice(kGpu + kGpu),
            "t.yaml:10:5: ResourceSlice s: spec.devices[1]: Duplicate value: \"gpu-0\"" },
        Case { "taint effect", slice(kGpu + "    taints: [{key: k, effect: PreferNoSchedule}]\n"),
            "t.yaml:10:31: ResourceSlice s: spec.devices[0].taints[0].effect: Unsupported value: "
            "\"PreferNoSchedule\": "
            "supported values: \"NoExecute\", \"NoSchedule\", \"None\"" },
        Case { "binding conditions alone", slice(kGpu + "    bindingConditions: [ready]\n"),
            "t.yaml:9:5: ResourceSlice s: spec.devices[0].bindingFailureConditions: Invalid value: "
            "[]string(nil): bindingFailureConditions are required to use bindingConditions" },
        Case { "per-device node without flag", slice(kGpu + "    nodeName: n1\n"),
            "t.yaml:10:15: ResourceSlice s: spec.devices[0]: Invalid value: \"null\": `nodeName`, "
            "`nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the "
            "ResourceSlice spec" },
        Case { "empty node name", slice(kGpu, "  nodeName: ''\n  allNodes: true\n"),
            "t.yaml:7:13: ResourceSlice s: spec.nodeName: Invalid value: \"\": must be either unset or set "
            "to a "
            "non-empty string" },
        Case { "allNodes false", slice(kGpu, "  allNodes: false\n"),
            "t.yaml:7:13: ResourceSlice s: spec.allNodes: Invalid value: false: must be either unset or set "
            "to "
            "true" },
        Case { "option above the capacity",
            slice(kGpu
                + "    allowMultipleAllocations: true\n"
                  "    capacity: {memory: {value: 8Gi, requestPolicy: {default: 1Gi, validValues: [1Gi, "
                  "16Gi]}}}\n"),
            "t.yaml:11:86: ResourceSlice s: spec.devices[0].capacity[memory].requestPolicy.validValues[1]: "
            "Invalid value: \"16Gi\": option is larger than capacity value: 8Gi" },
        Case { "default not an option",
            slice(kGpu
                + "    allowMultipleAllocations: true\n"
                  "    capacity: {memory: {value: 8Gi, requestPolicy: {default: 2Gi, validValues: [1Gi, "
                  "4Gi]}}}\n"),
            "t.yaml:11:62: ResourceSlice s: spec.devices[0].capacity[memory].requestPolicy.validValues: "
            "Invalid "
            "value: \"2Gi\": default value is not valid according to the requestPolicy" },
        Case { "options not sorted",
            slice(kGpu
                + "    allowMultipleAllocations: true\n"
                  "    capacity: {memory: {value: 8Gi, requestPolicy: {default: 1Gi, validValues: [2Gi, "
                  "1Gi]}}}\n"),
            "t.yaml:11:86: ResourceSlice s: spec.devices[0].capacity[memory].requestPolicy.validValues[1]: "
            "Invalid value: \"1Gi\": values must be sorted in ascending order" },
        Case { "range without default",
            slice(kGpu
                + "    allowMultipleAllocations: true\n"
                  "    capacity: {cores: {value: 100, requestPolicy: {validRange: {min: 1}}}}\n"),
            "t.yaml:11:51: ResourceSlice s: spec.devices[0].capacity[cores].requestPolicy.default: Required "
            "value: required when validRange is defined" },
        Case { "default below min",
            slice(kGpu
                + "    allowMultipleAllocations: true\n"
                  "    capacity: {cores: {value: 100, requestPolicy: {default: 1, validRange: {min: "
                  "10}}}}\n"),
            "t.yaml:11:61: ResourceSlice s: "
            "spec.devices[0].capacity[cores].requestPolicy.validRange.default: "
            "Invalid value: \"1\": default is less than min: 10" },
        Case { "one step above the capacity",
            slice(kGpu
                + "    allowMultipleAllocations: true\n"
                  "    capacity: {cores: {value: 100, requestPolicy: {default: 90, validRange: {min: 90, "
                  "step: 20}}}}\n"),
            "t.yaml:11:93: ResourceSlice s: spec.devices[0].capacity[cores].requestPolicy.validRange.step: "
            "Invalid value: \"20\": one step 110 is larger than capacity value: 100" },
        Case { "empty counters",
            slice(kGpu, "  nodeName: n1\n  sharedCounters: [{name: cs, counters: {}}]\n"),
            "t.yaml:8:41: ResourceSlice s: spec.sharedCounters[0].counters: Required value" },
        Case { "three counter consumptions",
            slice(kGpu
                + "    consumesCounters: [{counterSet: a, counters: {c: {value: 1}}}, {counterSet: b, "
                  "counters: {c: {value: 1}}}, {counterSet: c, counters: {c: {value: 1}}}]\n"),
            "t.yaml:10:23: ResourceSlice s: spec.devices[0].consumesCounters: Too many: 3: must have at most "
            "2 "
            "items" },
        Case { "failure condition overlaps",
            slice(kGpu + "    bindingConditions: [ready]\n    bindingFailureConditions: [ready]\n"),
            "t.yaml:11:32: ResourceSlice s: spec.devices[0].bindingFailureConditions[0]: Invalid value: "
            "\"ready\": bindingFailureConditions must not overlap with bindingConditions" },
        Case { "per-device node fields twice",
            slice(kGpu + "    nodeName: n1\n    allNodes: true\n", "  perDeviceNodeSelection: true\n"),
            "t.yaml:10:15: ResourceSlice s: spec.devices[0]: Invalid value: \"{`nodeName`, `allNodes`}\": "
            "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
            "`perDeviceNodeSelection` is set to true in the ResourceSlice spec" },
        Case { "v1beta1 device path without basic",
            "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: "
            "gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n1\n  devices:\n"
            "  - name: gpu-0\n    basic: {attributes: {v: {version: v1}}}\n",
            "t.yaml:10:39: ResourceSlice s: spec.devices[0].attributes[v].version: Invalid value: \"v1\": "
            "must "
            "be a string compatible with semver.org spec 2.0.0" },
        Case { "pool name part",
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: "
            "gpu.example.com\n  pool: {name: rack-1/Node_A, resourceSliceCount: 1}\n  nodeName: n1\n",
            "t.yaml:6:16: ResourceSlice s: spec.pool.name: Invalid value: \"Node_A\": a lowercase RFC 1123 "
            "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and "
            "end "
            "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')" },
        Case { "parameters above 10 KiB",
            claim("    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
                  "    config: [{opaque: {driver: gpu.example.com, parameters: {blob: '"
                + std::string(10240, 'x') + "'}}}]\n"),
            "t.yaml:7:61: ResourceClaim default/c: spec.devices.config[0].opaque.parameters: Too long: must "
            "have at most 10240 bytes" },
        Case { "exactly and firstAvailable",
            claim("    requests:\n    - name: r\n      exactly: {deviceClassName: gpu}\n"
                  "      firstAvailable: [{name: a, deviceClassName: gpu}]\n"),
            "t.yaml:9:23: ResourceClaim default/c: spec.devices.requests[0]: Invalid value: \"null\": "
            "exactly "
            "one of `exactly` or `firstAvailable` is required, but multiple fields are set" },
        Case { "count with All",
            claim("    requests:\n    - name: r\n      exactly: {deviceClassName: gpu, allocationMode: All, "
                  "count: 2}\n"),
            "t.yaml:8:67: ResourceClaim default/c: spec.devices.requests[0].exactly.count: Invalid value: 2: "
            "must not "
            "be specified when allocationMode is 'All'" },
        Case { "count negative",
            claim("    requests:\n    - name: r\n      exactly: {deviceClassName: gpu, count: -1}\n"),
            "t.yaml:8:46: ResourceClaim default/c: spec.devices.requests[0].exactly.count: Invalid value: "
            "-1: "
            "must be greater than zero" },
        Case { "unknown allocation mode",
            claim("    requests:\n    - name: r\n      exactly: {deviceClassName: gpu, allocationMode: "
                  "Some}\n"),
            "t.yaml:8:55: ResourceClaim default/c: spec.devices.requests[0].exactly.allocationMode: "
            "Unsupported "
            "value: \"Some\": supported values: \"All\", \"ExactCount\"" },
        Case { "nine subrequests",
            claim("    requests:\n    - name: r\n      firstAvailable:\n"
                + repeat(9,
                    [](int i) {
                        return "      - {name: s" + std::to_string(i) + ", deviceClassName: gpu}\n";
                    })),
            "t.yaml:9:7: ResourceClaim default/c: spec.devices.requests[0].firstAvailable: Too many: 9: must "
            "have at "
            "most 8 items" },
        Case { "33 selectors",
            claim("    requests:\n    - name: r\n      exactly:\n        deviceClassName: gpu\n        "
                  "selectors:\n"
                + repeat(33, [](int) { return "        - cel: {expression: 'true'}\n"; })),
            "t.yaml:11:9: ResourceClaim default/c: spec.devices.requests[0].exactly.selectors: Too many: 33: "
            "must "
            "have at most 32 items" },
        Case { "constraint without domain",
            claim("    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
                  "    constraints: [{matchAttribute: model}]\n"),
            "t.yaml:7:36: ResourceClaim default/c: spec.devices.constraints[0].matchAttribute: Invalid "
            "value: "
            "\"model\": a fully qualified name must be a domain and a name separated by a slash" },
        Case { "constraint name with two slashes",
            claim("    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
                  "    constraints: [{matchAttribute: dra.net/a/b}]\n"),
            "t.yaml:7:36: ResourceClaim default/c: spec.devices.constraints[0].matchAttribute: Invalid "
            "value: "
            "\"dra.net/a/b\": must not contain more than one slash" },
        Case { "constraint reference",
            claim("    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
                  "    constraints: [{requests: [r/x], matchAttribute: dra.net/numa}]\n"),
            "t.yaml:7:31: ResourceClaim default/c: spec.devices.constraints[0].requests[0]: Invalid value: "
            "\"r/x\": "
            "must be the name of a request in the claim or the name of a request and a subrequest separated "
            "by '/'" },
        Case { "duplicate request",
            claim("    requests:\n    - {name: r, exactly: {deviceClassName: gpu}}\n"
                  "    - {name: r, exactly: {deviceClassName: gpu}}\n"),
            "t.yaml:8:7: ResourceClaim default/c: spec.devices.requests[1]: Duplicate value: \"r\"" },
        Case { "duplicate constraint reference",
            claim("    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
                  "    constraints: [{requests: [r, r], matchAttribute: dra.net/numa}]\n"),
            "t.yaml:7:34: ResourceClaim default/c: spec.devices.constraints[0].requests[1]: Duplicate value: "
            "\"r\"" },
        Case { "reference with two slashes",
            claim("    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
                  "    config: [{requests: [r/a/b], opaque: {driver: gpu.example.com, parameters: {}}}]\n"),
            "t.yaml:7:26: ResourceClaim default/c: spec.devices.config[0].requests[0]: Invalid value: "
            "\"r/a/b\": must be the name of a request in the claim or the name of a request and a subrequest "
            "separated by '/'" },
        Case { "constraint without attribute",
            claim("    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
                  "    constraints: [{requests: [r]}]\n"),
            "t.yaml:7:19: ResourceClaim default/c: spec.devices.constraints[0]: Required value: exactly one "
            "of "
            "\"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set" },
        Case { "parameters not an object",
            claim("    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
                  "    config: [{opaque: {driver: gpu.example.com, parameters: [1]}}]\n"),
            "t.yaml:7:61: ResourceClaim default/c: spec.devices.config[0].opaque.parameters: Invalid value: "
            "\"<value omitted>\": must be a valid JSON object" },
        Case { "toleration value not a label value",
            claim("    requests:\n    - name: r\n      exactly:\n        deviceClassName: gpu\n"
                  "        tolerations: [{key: k, value: 'a b'}]\n"),
            "t.yaml:10:39: ResourceClaim default/c: spec.devices.requests[0].exactly.tolerations[0].value: "
            "Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric "
            "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
            "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
            "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')" },
        Case { "toleration Exists with a value",
            claim("    requests:\n    - name: r\n      exactly:\n        deviceClassName: gpu\n"
                  "        tolerations: [{key: k, operator: Exists, value: v}]\n"),
            "t.yaml:10:57: ResourceClaim default/c: spec.devices.requests[0].exactly.tolerations[0].value: "
            "Invalid value: \"v\": must be empty for operator `Exists`" },
        Case { "v1beta1 request with a name only", betaClaim("    requests:\n    - name: r\n"),
            "t.yaml:7:7: ResourceClaim default/c: spec.devices.requests[0]: Required value: exactly one of "
            "`exactly` or `firstAvailable` is required" },
        Case { "v1beta1 selectors without a class",
            betaClaim("    requests:\n    - name: r\n      selectors: [{cel: {expression: 'true'}}]\n"),
            "t.yaml:7:7: ResourceClaim default/c: spec.devices.requests[0].exactly.deviceClassName: Required "
            "value" },
        Case { "v1beta1 class and firstAvailable",
            betaClaim("    requests:\n    - name: r\n      deviceClassName: gpu\n"
                      "      firstAvailable: [{name: a, deviceClassName: gpu}]\n"),
            "t.yaml:9:23: ResourceClaim default/c: spec.devices.requests[0]: Invalid value: \"null\": "
            "exactly "
            "one of `exactly` or `firstAvailable` is required, but multiple fields are set" },
        Case { "v1beta1 negative count",
            betaClaim("    requests:\n    - {name: r, deviceClassName: gpu, count: -2}\n"),
            "t.yaml:7:46: ResourceClaim default/c: spec.devices.requests[0].exactly.count: Invalid value: "
            "-2: "
            "must be greater than zero" },
        Case { "quantity",
            claim("    requests:\n    - name: r\n      exactly:\n        deviceClassName: gpu\n"
                  "        capacity: {requests: {memory: 200K}}\n"),
            "t.yaml:10:39: ResourceClaim default/c: "
            "spec.devices.requests[0].exactly.capacity.requests[memory]: "
            "Invalid value: \"200K\": unable to parse quantity's suffix" },
        Case { "classic claim", claim("    requests: []\n  resourceClassName: gpu\n"),
            "t.yaml:7:3: ResourceClaim default/c: spec.resourceClassName: unknown field "
            "\"resourceClassName\": this "
            "is classic DRA (removed in Kubernetes 1.31); use spec.devices.requests with a deviceClassName "
            "instead" },
        Case { "extended resource name in kubernetes.io",
            "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: a}\n"
            "spec: {extendedResourceName: foo.kubernetes.io/gpu}\n",
            "t.yaml:4:30: DeviceClass a: spec.extendedResourceName: Invalid value: "
            "\"foo.kubernetes.io/gpu\": "
            "must be a valid extended resource name" },
        Case { "string given a boolean",
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: node1\n  labels: {enabled: yes}\n",
            "t.yaml:5:21: Node node1: metadata.labels[enabled]: expected a string, got boolean yes (quote it "
            "to "
            "make it "
            "a string)" },
        Case { "namespace on cluster-scoped object",
            "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu, namespace: x}\n",
            "t.yaml:3:34: DeviceClass gpu: metadata.namespace: Forbidden: not allowed on this type" },
        Case { "wrong version", "apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: d}\n",
            "t.yaml:1:13: Deployment default/d: apiVersion: no matches for kind \"Deployment\" in version "
            "\"apps/v1beta1\" (expected apps/v1)" },
        Case { "pod without containers", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {}\n",
            "t.yaml:4:7: Pod default/p: spec.containers: Required value" },
        Case { "duplicate object",
            "apiVersion: v1\nkind: Node\nmetadata: {name: dup}\n---\napiVersion: v1\nkind: Node\nmetadata: "
            "{name: dup}\n",
            "t.yaml:5:1: Node dup: metadata.name: Duplicate value: \"dup\": already defined at t.yaml:1" }));

TEST(Validation, AllErrorsOfARunAreReportedUpToTheCap)
{
    std::string text;
    for (int i = 0; i < 5; ++i)
        text += "---\napiVersion: v1\nkind: Node\nmetadata: {name: N" + std::to_string(i) + "}\n";
    auto r = yamlio::loadText(text, "t.yaml");
    EXPECT_EQ(r.diagnostics.errorCount(), 5u);
    EXPECT_TRUE(r.objects.nodes.empty());

    yamlio::LoadOptions options;
    options.maxErrors = 2;
    auto capped = yamlio::loadText(text, "t.yaml", options);
    EXPECT_EQ(capped.diagnostics.errorCount(), 2u);
    EXPECT_TRUE(capped.diagnostics.full());
}

} // namespace
