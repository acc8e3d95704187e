// SPDX-License-Identifier: Apache-2.0
// Laws over random 1.35 gangs on random clusters (SimOptions::permitGangs): a gang with no member
// bound binds none or at least minCount of them at one instant (its members wait at Permit until
// then, and a deadline that passes binds nothing); the devices held by waiting members are never
// held twice, and every one of them is free again or bound once its gang's deadline has passed.
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/forwarding_port.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

/// Each job's bound members, instant by instant: a gang's first binding must bring at least
/// minCount members at once.
struct BindingLaw : RunRecorder
{
    std::map<std::string, int32_t> minCount; ///< per gang job
    std::map<std::string, int32_t> bound; ///< members bound now
    std::set<std::string> boundPods;
    SimTime instant = -1;
    std::map<std::string, int32_t> boundAtInstantStart;
    std::string seed;
    int firstBinds = 0;
    int timeouts = 0;

    void onPodEvent(const PodEvent& e) override
    {
        if (e.time != instant)
            closeInstant(e.time);
        if (!boundAtInstantStart.count(e.job))
            boundAtInstantStart[e.job] = bound[e.job];
        if (e.type == PodEventType::Scheduled) {
            boundPods.insert(e.pod);
            bound[e.job]++;
        } else if (e.type != PodEventType::Created && e.type != PodEventType::Unschedulable
            && boundPods.erase(e.pod) > 0) {
            bound[e.job]--;
        }
        if (e.type == PodEventType::Unschedulable && e.message.starts_with("rejected due to timeout"))
            ++timeouts;
    }
    void closeInstant(SimTime next)
    {
        for (const auto& [job, before] : boundAtInstantStart) {
            auto m = minCount.find(job);
            if (m == minCount.end() || before != 0 || bound[job] == 0)
                continue;
            ++firstBinds;
            EXPECT_GE(bound[job], m->second) << seed << " job " << job << " at " << formatDuration(instant);
        }
        boundAtInstantStart.clear();
        instant = next;
    }
};

/// No device is allocated to two claims, and no node has more allocated than it has.
class CapacityPort final : public ForwardingPort
{
public:
    CapacityPort(scheduler::Cluster& cluster, std::string seed)
        : ForwardingPort(cluster)
        , m_seed(std::move(seed))
    { }
    BindOutcome schedule(const api::Pod& pod) override
    {
        BindOutcome out = m_inner.schedule(pod);
        std::set<std::string> held;
        for (const auto* claim : m_cluster.claims()) {
            if (!claim->allocation)
                continue;
            for (const auto& r : claim->allocation->results) {
                EXPECT_TRUE(held.insert(r.pool + "/" + r.device).second) << m_seed << " " << r.device;
            }
        }
        for (const auto& u : m_cluster.deviceUsage())
            EXPECT_LE(u.allocated, u.total) << m_seed << " node " << u.node;
        return out;
    }
    // The queueing hints read the changes the scheduler reports.
    bool takeChanges(std::vector<scheduler::ClusterChange>& into) override
    {
        return m_inner.takeChanges(into);
    }

private:
    std::string m_seed;
};

} // namespace

TEST(PermitGangLaws, AGangBindsNoneOrAtLeastMinCountAtOnce)
{
    int firstBinds = 0;
    int timeouts = 0;
    for (uint64_t seed = 7'350'000; seed < 7'350'200; ++seed) {
        std::mt19937_64 rng(seed);
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        SimOptions o;
        o.scenarioName = "permit-gang-laws";
        o.duration = 1800 * kSecond;
        o.metricInterval = 0;
        o.permitGangs = true;
        o.popFromBackoffQ = pick(0, 1) == 1;
        BindingLaw law;
        law.seed = "seed " + std::to_string(seed);
        std::vector<workload::JobSpec> jobs;
        for (int i = 0, n = pick(1, 7); i < n; ++i) {
            workload::JobSpec job
                = gpuJob("j" + std::to_string(i), pick(0, 400), pick(20, 700), pick(1, 2), pick(0, 1) * 10);
            job.parallelism = pick(1, 5);
            job.completions = job.parallelism * pick(1, 2);
            job.backoffLimit = pick(0, 2);
            if (pick(0, 4) > 0) {
                workload::GroupSpec g;
                g.gang = true;
                g.minCount = pick(0, job.parallelism); // 0: parallelism
                job.group = g;
                law.minCount[job.name] = g.minCount > 0 ? g.minCount : job.parallelism;
            }
            jobs.push_back(std::move(job));
        }
        scheduler::Cluster cluster(withGpuTemplate(2));
        CapacityPort port(cluster, law.seed);
        Simulator sim(port, o);
        const int nodes = pick(1, 5);
        sim.addNodePool(gpuPool("n", nodes, pick(1, 4)));
        if (pick(0, 3) == 0) {
            // A node fails while members may wait on it, and comes back.
            InjectedEvent fail;
            fail.at = pick(1, 500) * kSecond;
            fail.type = InjectedEvent::Type::NodeFailure;
            fail.node = "n-" + std::to_string(pick(0, nodes - 1));
            InjectedEvent back = fail;
            back.at = fail.at + pick(1, 300) * kSecond;
            back.type = InjectedEvent::Type::NodeReturn;
            sim.addEvent(fail);
            sim.addEvent(back);
        }
        sim.setArrivals(source(std::move(jobs)));
        sim.addRecorder(&law);
        sim.run();
        law.closeInstant(-1);
        firstBinds += law.firstBinds;
        timeouts += law.timeouts;
        if (::testing::Test::HasFailure())
            break; // one seed's failures are enough to read
    }
    // The law was exercised, not vacuously true: gangs bound, and deadlines passed.
    EXPECT_GT(firstBinds, 100);
    EXPECT_GT(timeouts, 20);
}
