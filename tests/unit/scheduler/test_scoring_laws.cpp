// SPDX-License-Identifier: Apache-2.0
// Randomised laws of the resource score and of the pod requests scoring uses, where kube-scheduler's
// rules can be stated without restating its formulas:
//   * a resource the node has none of is left out of the mean: the node scores exactly like one
//     whose missing resource is as full as its cpu (LeastAllocated, MostAllocated, and the
//     default policy with BalancedAllocation);
//   * a pod that states every cpu and memory request, zero included, is scored by those requests:
//     the non-zero defaults (100m, 200Mi) stand in only for requests that are missing.
// Seeded: DRASIM_SCORING_SEED (first case), DRASIM_SCORING_CASES (how many).
#include <cstdlib>
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/scoring.h"
#include "tests/unit/env_number.h"

namespace drasim::scheduler {
namespace {

using drasim::test_support::envNumber;

class ScoringLaws : public ::testing::Test
{
protected:
    uint64_t m_first = envNumber("DRASIM_SCORING_SEED", 20261202);
    uint64_t m_cases = envNumber("DRASIM_SCORING_CASES", 5000);
};

TEST_F(ScoringLaws, MissingResourceScoresLikeOneAsFullAsCpu)
{
    int failures = 0;
    for (uint64_t seed = m_first; seed < m_first + m_cases && failures < 5; ++seed) {
        std::mt19937_64 rng(seed);
        auto upTo = [&](int64_t n) { return int64_t(rng() % uint64_t(n + 1)); };
        NodeUsage lacking;
        lacking.allocatable.milliCpu = 1 + upTo(64000);
        lacking.requested.milliCpu = upTo(lacking.allocatable.milliCpu + 2000);
        lacking.nonZeroMilliCpu = lacking.requested.milliCpu + 100 * upTo(3);
        PodRequests pod;
        pod.requests.milliCpu = 1 + upTo(8000); // a pod with a cpu request is never skipped
        pod.nonZeroMilliCpu = pod.requests.milliCpu;
        pod.nonZeroMemory = kDefaultMemoryRequest;

        // The same node with memory exactly as full as its cpu, in every count scoring reads.
        NodeUsage mirrored = lacking;
        mirrored.allocatable.memory = lacking.allocatable.milliCpu;
        mirrored.requested.memory = lacking.requested.milliCpu;
        mirrored.nonZeroMemory = lacking.nonZeroMilliCpu;
        PodRequests mirroredPod = pod;
        mirroredPod.requests.memory = pod.requests.milliCpu;
        mirroredPod.nonZeroMemory = pod.nonZeroMilliCpu;

        for (auto policy :
            { ScoringPolicy::Default, ScoringPolicy::LeastAllocated, ScoringPolicy::MostAllocated }) {
            int64_t a = usageScore(scoringProfile(policy), lacking, pod);
            int64_t b = usageScore(scoringProfile(policy), mirrored, mirroredPod);
            if (a != b) {
                ADD_FAILURE() << "policy " << int(policy) << ": node without memory scores " << a
                              << ", mirrored node " << b << "\n  reproduce: DRASIM_SCORING_SEED=" << seed
                              << " DRASIM_SCORING_CASES=1";
                ++failures;
            }
        }
    }
}

TEST_F(ScoringLaws, StatedRequestsAreScoredAsStated)
{
    int failures = 0, zeros = 0;
    for (uint64_t seed = m_first; seed < m_first + m_cases && failures < 5; ++seed) {
        std::mt19937_64 rng(seed);
        const int64_t cpuValues[] = { 0, 0, 50, 100, 250, 1000, 4000 };
        const int64_t memValues[] = { 0, 0, 1 << 20, 200 << 20, int64_t(1) << 30 };
        api::PodSpec spec;
        int64_t cpuSum = 0, memSum = 0, cpuInit = 0, memInit = 0;
        auto container = [&](bool init) {
            api::Container c;
            int64_t cpu = cpuValues[rng() % 7], mem = memValues[rng() % 5];
            zeros += cpu == 0;
            c.resources.requests["cpu"] = Quantity::fromMilli(cpu);
            c.resources.requests["memory"] = Quantity::fromInt(mem);
            if (init) {
                cpuInit = std::max(cpuInit, cpu);
                memInit = std::max(memInit, mem);
                spec.initContainers.push_back(std::move(c));
            } else {
                cpuSum += cpu;
                memSum += mem;
                spec.containers.push_back(std::move(c));
            }
        };
        for (uint64_t i = 0, n = 1 + rng() % 3; i < n; ++i)
            container(false);
        for (uint64_t i = 0, n = rng() % 2; i < n; ++i)
            container(true);
        PodRequests r = computePodRequests(spec);
        const int64_t cpu = std::max(cpuSum, cpuInit), mem = std::max(memSum, memInit);
        if (r.nonZeroMilliCpu != cpu || r.nonZeroMemory != mem || r.requests.milliCpu != cpu
            || r.requests.memory != mem) {
            ADD_FAILURE() << "stated requests cpu " << cpu << "m memory " << mem << " are scored as cpu "
                          << r.nonZeroMilliCpu << "m memory " << r.nonZeroMemory
                          << "\n  reproduce: DRASIM_SCORING_SEED=" << seed << " DRASIM_SCORING_CASES=1";
            ++failures;
        }
    }
    if (m_cases >= 1000) {
        EXPECT_GT(zeros, int(m_cases / 4)); // explicit zeros are exercised
    }
}

} // namespace
} // namespace drasim::scheduler
