// SPDX-License-Identifier: Apache-2.0
// Laws over random ResourceSlices and ResourceClaims: the same object written in
// resource.k8s.io/v1, v1beta2 and v1beta1 (devices under `basic`, requests flat) loads to the same
// v1 model, as the API server's conversions make them one internal object; and writing what was
// loaded and reading it again gives it back.
#include <random>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

struct Rng
{
    std::mt19937 engine;
    int below(int n) { return int(engine() % uint32_t(n)); }
    bool chance(int percent) { return below(100) < percent; }
    template <class T> const T& pick(const std::vector<T>& v) { return v[size_t(below(int(v.size())))]; }
};

/// A device's fields as YAML lines at the given indent (v1: under the item, v1beta1: under basic).
std::string deviceFields(Rng& rng, const std::string& in)
{
    std::string out;
    std::vector<std::string> attributes;
    if (rng.chance(70))
        attributes.push_back("model: {string: " + rng.pick<std::string>({ "a100", "h100", "'yes'" }) + "}");
    if (rng.chance(60))
        attributes.push_back("index: {int: " + std::to_string(rng.below(8)) + "}");
    if (rng.chance(40))
        attributes.push_back("mig: {bool: " + std::string(rng.chance(50) ? "true" : "false") + "}");
    if (rng.chance(40))
        attributes.push_back(
            "gpu.example.com/driverVersion: {version: " + std::to_string(rng.below(600)) + ".1.0-rc.1+b7}");
    if (!attributes.empty()) {
        out += in + "attributes:\n";
        for (const auto& a : attributes)
            out += in + "  " + a + "\n";
    }
    if (rng.chance(60))
        out += in + "capacity: {memory: {value: " + std::to_string(1 + rng.below(96)) + "Gi}}\n";
    if (rng.chance(30))
        out += in + "taints: [{key: example.com/maint, value: v" + std::to_string(rng.below(3))
            + ", effect: " + rng.pick<std::string>({ "NoSchedule", "NoExecute", "None" }) + "}]\n";
    if (rng.chance(20))
        out += in + "bindsToNode: true\n" + in + "bindingConditions: [ready]\n" + in
            + "bindingFailureConditions: [failed]\n";
    return out;
}

/// The v1 text and the v1beta1 text of one slice (without apiVersion).
std::pair<std::string, std::string> randomSlice(Rng& rng, int index)
{
    std::string head = "kind: ResourceSlice\nmetadata: {name: slice-" + std::to_string(index)
        + "}\nspec:\n  driver: gpu.example.com\n  pool: {name: pool-" + std::to_string(index)
        + ", generation: " + std::to_string(rng.below(3)) + ", resourceSliceCount: 1}\n"
        + (rng.chance(70) ? "  nodeName: node-1\n" : "  allNodes: true\n") + "  devices:\n";
    std::string v1 = head, beta = head;
    const int devices = 1 + rng.below(4);
    for (int d = 0; d < devices; ++d) {
        const std::string fields = deviceFields(rng, "    ");
        std::string nested;
        for (size_t start = 0; start < fields.size();) {
            const size_t end = fields.find('\n', start);
            nested += "  " + fields.substr(start, end - start + 1);
            start = end + 1;
        }
        v1 += "  - name: gpu-" + std::to_string(d) + "\n" + fields;
        beta += "  - name: gpu-" + std::to_string(d) + "\n" + (fields.empty() ? "" : "    basic:\n" + nested);
    }
    return { v1, beta };
}

/// The fields of an exact request or subrequest, one `key: value` each.
std::vector<std::string> requestFields(Rng& rng, bool allowAdminAccess)
{
    std::vector<std::string> f { "deviceClassName: gpu.example.com" };
    const int mode = rng.below(3);
    if (mode == 1)
        f.push_back("allocationMode: ExactCount");
    if (mode == 2)
        f.push_back("allocationMode: All");
    if (rng.chance(60))
        f.push_back("count: " + std::to_string(mode == 2 ? 0 : rng.below(4)));
    if (rng.chance(40))
        f.push_back("selectors: [{cel: {expression: \"device.attributes['gpu.example.com'].index >= "
            + std::to_string(rng.below(4)) + "\"}}]");
    if (allowAdminAccess && rng.chance(15))
        f.push_back(std::string("adminAccess: ") + (rng.chance(50) ? "true" : "false"));
    if (rng.chance(30)) {
        const int op = rng.below(3);
        std::string t = op == 0 ? "{key: example.com/maint, operator: Exists"
            : op == 1           ? "{key: example.com/maint, operator: Equal, value: v1"
                                : "{value: v2";
        if (rng.chance(50))
            t += ", effect: " + rng.pick<std::string>({ "NoSchedule", "NoExecute", "None" });
        f.push_back("tolerations: [" + t + "}]");
    }
    return f;
}

std::string joinFlow(const std::vector<std::string>& fields)
{
    std::string out;
    for (const auto& f : fields)
        out += (out.empty() ? "" : ", ") + f;
    return "{" + out + "}";
}

std::pair<std::string, std::string> randomClaim(Rng& rng, int index)
{
    std::string head = "kind: ResourceClaim\nmetadata: {name: claim-" + std::to_string(index)
        + ", namespace: ml}\nspec:\n  devices:\n    requests:\n";
    std::string v1 = head, beta = head;
    const int requests = 1 + rng.below(3);
    for (int q = 0; q < requests; ++q) {
        const std::string name = "r" + std::to_string(q);
        if (rng.chance(70)) {
            const auto fields = requestFields(rng, true);
            v1 += "    - {name: " + name + ", exactly: " + joinFlow(fields) + "}\n";
            std::vector<std::string> flat { "name: " + name };
            flat.insert(flat.end(), fields.begin(), fields.end());
            beta += "    - " + joinFlow(flat) + "\n";
        } else {
            std::string subs;
            const int n = 1 + rng.below(3);
            for (int s = 0; s < n; ++s) {
                std::vector<std::string> fields { "name: s" + std::to_string(s) };
                const auto more = requestFields(rng, false);
                fields.insert(fields.end(), more.begin(), more.end());
                subs += (s ? ", " : "") + joinFlow(fields);
            }
            const std::string line = "    - {name: " + name + ", firstAvailable: [" + subs + "]}\n";
            v1 += line;
            beta += line;
        }
    }
    std::string tail;
    if (rng.chance(40))
        tail += "    constraints: [{requests: [r0], matchAttribute: gpu.example.com/model}]\n";
    if (rng.chance(30))
        tail += "    config: [{requests: [r0], opaque: {driver: gpu.example.com, parameters: {sharing: "
                "TimeSlicing}}}]\n";
    return { v1 + tail, beta + tail };
}

std::string loadAndWrite(const std::string& text, const std::string& what)
{
    auto r = yamlio::loadText(text, "t.yaml");
    EXPECT_FALSE(r.diagnostics.hasErrors()) << what << "\n" << r.diagnostics.formatAll() << "\n" << text;
    return yamlio::toYamlList(r.objects);
}

TEST(VersionLaws, EveryVersionLoadsToTheSameObjects)
{
    for (uint32_t seed = 1; seed <= 150; ++seed) {
        Rng rng { std::mt19937(seed) };
        std::string v1, v1beta2, v1beta1;
        for (int i = 0; i < 2; ++i) {
            const auto [sliceV1, sliceBeta] = randomSlice(rng, i);
            const auto [claimV1, claimBeta] = randomClaim(rng, i);
            for (const auto& [text, version, out] : { std::tuple { sliceV1 + "---\n" + claimV1, "v1", &v1 },
                     std::tuple { sliceV1 + "---\n" + claimV1, "v1beta2", &v1beta2 },
                     std::tuple { sliceBeta + "---\n" + claimBeta, "v1beta1", &v1beta1 } }) {
                std::string doc = "---\napiVersion: resource.k8s.io/" + std::string(version) + "\n" + text;
                const size_t sep = doc.find("---\nkind:", 4);
                doc.insert(sep + 4, "apiVersion: resource.k8s.io/" + std::string(version) + "\n");
                *out += doc;
            }
        }
        const std::string fromV1 = loadAndWrite(v1, "v1, seed " + std::to_string(seed));
        EXPECT_EQ(loadAndWrite(v1beta2, "v1beta2"), fromV1) << "seed " << seed;
        EXPECT_EQ(loadAndWrite(v1beta1, "v1beta1"), fromV1) << "seed " << seed << "\n" << v1beta1;
        // What was written reads back to itself.
        EXPECT_EQ(loadAndWrite(fromV1, "written"), fromV1) << "seed " << seed;
        if (HasFailure())
            return;
    }
}

} // namespace
