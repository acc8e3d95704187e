// SPDX-License-Identifier: Apache-2.0
// The fast path (score-ordered lazy search, skipping nodes without free devices) must pick exactly
// what the plain algorithm picks: filter every node, score the feasible ones, tie-break by name.
// explain=true forces the plain algorithm, so two identical clusters driven by the same random
// pod stream, one with explain and one without, must stay identical.
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;

namespace {

api::ObjectSet randomCluster(std::mt19937& rng)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    api::ObjectSet o;
    const int nodes = pick(2, 9);
    for (int n = 0; n < nodes; ++n) {
        std::string name = numbered("node-", n);
        auto nd = node(name, { { "rack", numbered("r", n % 3) } }, std::to_string(pick(1, 8)),
            numbered("", pick(1, 8)) + "Gi");
        o.nodes.push_back(nd);
        std::vector<api::Device> devs;
        const int count = pick(0, 4);
        for (int d = 0; d < count; ++d)
            devs.push_back(device(numbered("gpu-", d), { { "mem", intAttr(pick(1, 3) * 16) } }));
        if (!devs.empty())
            o.resourceSlices.push_back(slice(name + "-gpus", "gpu.example.com", name, name, devs));
    }
    o.deviceClasses.push_back(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    api::ResourceClaimTemplate small, big;
    small.meta.name = "small";
    small.meta.namespace_ = big.meta.namespace_ = "default";
    small.spec.requests.push_back(exactRequest("gpu", requestSpec("gpu")));
    big.meta.name = "big";
    big.spec.requests.push_back(
        exactRequest("gpu", requestSpec("gpu", 2, { "device.attributes[\"gpu.example.com\"].mem >= 32" })));
    o.resourceClaimTemplates = { small, big };
    return o;
}

std::string describe(const scheduler::ScheduleResult& r)
{
    std::string s = r.scheduled ? "node=" + r.nodeName : "pending: " + r.message;
    for (const auto& d : r.allocated)
        s += " " + d.claim + ":" + d.request + "=" + d.pool + "/" + d.device;
    return s;
}

} // namespace

TEST(SchedulerEquivalence, LazyPathMatchesPlainAlgorithm)
{
    for (uint32_t seed = 1; seed <= 60; ++seed) {
        std::mt19937 rng(seed);
        auto objects = randomCluster(rng);
        scheduler::Cluster fast(objects), plain(objects);
        std::vector<std::string> bound;
        for (int i = 0; i < 40; ++i) {
            auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
            api::Pod p = pod(numbered("p", i));
            const int kind = pick(0, 3);
            if (kind >= 1)
                p.spec.resourceClaims.push_back(
                    api::PodResourceClaim { "a", std::nullopt, std::string("small") });
            if (kind == 3)
                p.spec.resourceClaims.push_back(
                    api::PodResourceClaim { "b", std::nullopt, std::string("big") });
            if (pick(0, 2) == 0)
                p.spec.containers[0].resources.requests["cpu"] = q(numbered("", pick(1, 4) * 250) + "m");
            if (pick(0, 4) == 0)
                p.spec.nodeSelector["rack"] = numbered("r", pick(0, 2));
            auto a = fast.schedule(p);
            auto b = plain.schedule(p, true);
            ASSERT_EQ(describe(a), describe(b)) << "seed " << seed << " pod " << i;
            if (a.scheduled)
                bound.push_back("default/" + p.meta.name);
            if (!bound.empty() && pick(0, 3) == 0) {
                size_t k = size_t(pick(0, int(bound.size()) - 1));
                fast.podFinished(bound[k]);
                plain.podFinished(bound[k]);
                bound.erase(bound.begin() + long(k));
            }
        }
    }
}
