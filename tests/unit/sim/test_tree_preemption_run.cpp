// SPDX-License-Identifier: Apache-2.0
// Workload-aware preemption of and by CompositePodGroup hierarchies in a run (Kubernetes 1.37
// alpha, KEP-6012, kubernetes/kubernetes#140634): a hierarchy whose root does not fit evicts
// lower-priority units anywhere, waits nominated through their grace period and then binds whole;
// a victim hierarchy whose root's disruptionMode is all leaves whole, whatever its PodGroups say.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/event_lines.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace tree_preemption_run {

using TreePreemptionLog = EventLines;

api::GroupPolicy gangOf(int32_t count, int32_t priority, api::DisruptionMode mode)
{
    api::GroupPolicy p;
    p.scheduling.gang = true;
    p.scheduling.minCount = count;
    p.priority = priority;
    p.disruptionMode = mode;
    return p;
}

/// Composite group `root` (a gang of both children, at `priority`, disruptionMode `mode`) over
/// PodGroups "<root>-a" and "<root>-b" (gangs of two, disruptionMode single).
std::shared_ptr<const workload::ManifestGroups> tree(
    const std::string& root, int32_t priority, api::DisruptionMode mode)
{
    auto m = std::make_shared<workload::ManifestGroups>();
    api::CompositePodGroup c;
    c.meta.name = root;
    c.meta.namespace_ = "default";
    c.policy = gangOf(2, priority, mode);
    m->composites.push_back(c);
    for (const char* leaf : { "-a", "-b" }) {
        api::PodGroup g;
        g.meta.name = root + leaf;
        g.meta.namespace_ = "default";
        g.parentCompositePodGroupName = root;
        g.policy = gangOf(2, priority, api::DisruptionMode::Single);
        m->groups.push_back(g);
    }
    return m;
}

/// The two Jobs of a tree's leaves: two pods each, one device-plugin GPU per pod.
std::vector<workload::JobSpec> treeJobs(
    const std::string& root, double at, double seconds, int32_t priority, api::DisruptionMode mode)
{
    std::vector<workload::JobSpec> jobs;
    const auto objects = tree(root, priority, mode);
    for (const char* leaf : { "-a", "-b" }) {
        workload::JobSpec job = pluginGpuJob(root + leaf, at, seconds, priority);
        job.parallelism = 2;
        job.completions = 2;
        job.backoffLimit = 10;
        auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
        tmpl->spec.schedulingGroup = root + leaf;
        job.tasks[0].pod = tmpl;
        job.hierarchy = objects;
        jobs.push_back(std::move(job));
    }
    return jobs;
}

TreePreemptionLog run(std::vector<workload::JobSpec> jobs)
{
    scheduler::SchedulerOptions options;
    options.podGroupUnitsInPreemption = true; // 1.37's DefaultPreemption respects victims' groups
    scheduler::Cluster cluster(api::ObjectSet {}, options);
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "tree-preemption";
    o.duration = 3000 * kSecond;
    o.metricInterval = 0;
    o.podGroups = true;
    o.workloadAwarePreemption = true;
    Simulator sim(port, o);
    sim.addNodePool(devicePluginPool(4));
    sim.setArrivals(source(std::move(jobs)));
    TreePreemptionLog log;
    sim.addRecorder(&log);
    sim.run();
    return log;
}

// A training job (a gang of four at priority 0) holds every GPU; a hierarchy at priority 1000
// arrives at 100 s, evicts the job's four pods in one preemption, waits through their 30 s grace
// period and binds its four pods together.
TEST(TreePreemptionRun, AHierarchyEvictsALowerTrainingJobAndBindsAfterTheGracePeriod)
{
    workload::JobSpec batch = pluginGpuJob("batch", 0, 1000, 0);
    batch.parallelism = 4;
    batch.completions = 4;
    batch.backoffLimit = 10;
    workload::GroupSpec gang;
    gang.gang = true;
    batch.group = gang;
    std::vector<workload::JobSpec> jobs { batch };
    for (auto& j : treeJobs("job", 100, 500, 1000, api::DisruptionMode::Single))
        jobs.push_back(std::move(j));
    const TreePreemptionLog log = run(jobs);
    EXPECT_EQ(log.count("1m40s Preempted default/batch-"), 4) << log.dump();
    EXPECT_EQ(log.count("preempted by composite pod group default/job (priority 1000)"), 4) << log.dump();
    // The victims' DisruptionTarget names a CompositePodGroup preemptor (compositePodGroupExecutorPreemptor).
    EXPECT_EQ(log.count("Evicted default/batch-"), 4) << log.dump();
    EXPECT_EQ(log.count("preempting to accommodate a higher priority compositepodgroup"), 4) << log.dump();
    EXPECT_EQ(log.count("Scheduled default/job-"), 4) << log.dump();
    EXPECT_EQ(log.count("2m10s Scheduled default/job-"), 4) << log.dump();
}

// The unit rule: a pod at priority 1000 needs one GPU of a cluster full of a hierarchy at
// priority 0 whose PodGroups say single. With its root's disruptionMode all the whole hierarchy
// leaves; with single, one pod.
TEST(TreePreemptionRun, AnAllRootTakesItsWholeSubtreeAsOneVictim)
{
    for (const auto mode : { api::DisruptionMode::All, api::DisruptionMode::Single }) {
        std::vector<workload::JobSpec> jobs = treeJobs("low", 0, 1000, 0, mode);
        jobs.push_back(pluginGpuJob("p", 100, 500, 1000));
        const TreePreemptionLog log = run(jobs);
        const bool all = mode == api::DisruptionMode::All;
        EXPECT_EQ(log.count("1m40s Preempted default/low-"), all ? 4 : 1) << log.dump();
        EXPECT_EQ(log.count("2m10s Scheduled default/p-0"), 1) << log.dump();
    }
}

// A hierarchy never evicts a unit of its own priority: a tree at 1000 waits for another at 1000
// to end.
TEST(TreePreemptionRun, AnEqualPriorityHierarchyIsNoVictim)
{
    std::vector<workload::JobSpec> jobs = treeJobs("first", 0, 1000, 1000, api::DisruptionMode::All);
    for (auto& j : treeJobs("second", 100, 500, 1000, api::DisruptionMode::Single))
        jobs.push_back(std::move(j));
    const TreePreemptionLog log = run(jobs);
    EXPECT_EQ(log.count("Preempted"), 0) << log.dump();
    EXPECT_EQ(log.count("16m40s Scheduled default/second-"), 4) << log.dump();
}

} // namespace tree_preemption_run
