// SPDX-License-Identifier: Apache-2.0
// Randomised law of claim lookup (PreEnqueue, §6.1): a pod whose claim entries name missing,
// deleted, foreign or template-generated claims is held back with the message of its first
// failing entry, each entry checked as upstream does: the claim must exist, must not be being
// deleted, and (generated claims only) must be owned by the pod, in that order.
// Seeded: DRASIM_LOOKUP_SEED (first case), DRASIM_LOOKUP_CASES (how many).
#include <cstdlib>
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"
#include "tests/unit/env_number.h"

using namespace drasim;
using namespace drasim::testing;

namespace {

using drasim::test_support::envNumber;

TEST(ClaimLookupLaws, FirstFailingEntryInUpstreamCheckOrder)
{
    const uint64_t first = envNumber("DRASIM_LOOKUP_SEED", 20261202);
    const uint64_t cases = envNumber("DRASIM_LOOKUP_CASES", 3000);
    int failures = 0, heldBack = 0, deletedAndForeign = 0;
    for (uint64_t seed = first; seed < first + cases && failures < 5; ++seed) {
        std::mt19937_64 rng(seed);
        api::ObjectSet o;
        o.nodes.push_back(node("node-0"));
        o.resourceSlices.push_back(slice("s", "gpu.example.com", "node-0", "node-0",
            { device("gpu-0"), device("gpu-1"), device("gpu-2") }));
        addOneGpuClassAndTemplate(o);

        api::Pod p = pod("p");
        std::string expected;
        for (int e = 0, n = 1 + int(rng() % 3); e < n; ++e) {
            const std::string entry = "e" + std::to_string(e);
            const bool fromTemplate = rng() % 2;
            const std::string claimName = fromTemplate ? "p-" + entry : "c" + std::to_string(e);
            const bool exists = rng() % 3 != 0;
            const bool deleting = exists && rng() % 3 == 0;
            const bool owned = exists && fromTemplate && rng() % 2;
            const bool templateExists = rng() % 4 != 0;
            std::string failure;
            if (exists) {
                api::ResourceClaim c = claim(claimName, { exactRequest("gpu", requestSpec("gpu")) });
                c.deleting = deleting;
                if (owned)
                    c.meta.ownerReferences.push_back(
                        api::OwnerReference { "v1", "Pod", "p", p.meta.uid, true });
                o.resourceClaims.push_back(std::move(c));
                if (deleting)
                    failure = "resourceclaim \"" + claimName + "\" is being deleted";
                else if (fromTemplate && !owned)
                    failure = "ResourceClaim default/" + claimName
                        + " was not created for pod default/p (pod is not owner)";
                deletedAndForeign += deleting && fromTemplate && !owned;
            } else if (!fromTemplate) {
                failure = "resourceclaim.resource.k8s.io \"" + claimName + "\" not found";
            } else if (!templateExists) {
                failure = "resourceclaimtemplate.resource.k8s.io \"nope\" not found";
            }
            if (fromTemplate)
                p.spec.resourceClaims.push_back(api::PodResourceClaim {
                    entry, std::nullopt, templateExists || exists ? "one-gpu" : "nope" });
            else
                p.spec.resourceClaims.push_back(api::PodResourceClaim { entry, claimName, std::nullopt });
            if (expected.empty())
                expected = failure;
        }
        scheduler::Cluster cluster(std::move(o));
        auto r = cluster.schedule(p);
        if (expected.empty())
            continue; // the law speaks of pods held back
        ++heldBack;
        if (r.scheduled || r.failure != scheduler::FailureKind::ClaimLookup || r.message != expected) {
            ADD_FAILURE() << "pod held back with \"" << r.message << "\", upstream: \"" << expected
                          << "\"\n  reproduce: DRASIM_LOOKUP_SEED=" << seed << " DRASIM_LOOKUP_CASES=1";
            ++failures;
        }
    }
    if (cases >= 1000) {
        EXPECT_GT(heldBack, int(cases / 3));
        EXPECT_GT(deletedAndForeign, int(cases / 50)); // the check order is exercised
    }
}

} // namespace
