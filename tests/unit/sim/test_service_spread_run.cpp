// SPDX-License-Identifier: Apache-2.0
// The Services of a workload's manifests reach the cluster when its jobs arrive: the pods they
// select get PodTopologySpread's system default constraints over the Service's selector, exactly
// as the pods of a ReplicaSet with that selector do.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace service_spread_run {

struct Placements : RunRecorder
{
    std::map<std::string, std::string> nodeOf; ///< pod -> node
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type == PodEventType::Scheduled)
            nodeOf[e.pod] = e.node;
    }
};

/// One node of `cpu` cores and `memory`, labelled with its hostname.
NodeSpec sizedNode(const std::string& name, const std::string& cpu, const std::string& memory)
{
    NodeSpec n;
    n.node.meta.name = name;
    n.node.meta.labels["kubernetes.io/hostname"] = name;
    n.node.allocatable["cpu"] = *Quantity::parse(cpu);
    n.node.allocatable["memory"] = *Quantity::parse(memory);
    n.node.allocatable["pods"] = *Quantity::parse("110");
    n.node.capacity = n.node.allocatable;
    return n;
}

enum class Selected { Nothing, ByService, ByReplicaSet };

/// Six app=web pods, one a second, on a big and a small node: the big one is the least allocated
/// for all of them, so only a spread sends some to the small one.
std::map<std::string, std::string> run(Selected how)
{
    scheduler::Cluster cluster(api::ObjectSet {});
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "service-spread";
    o.duration = 100 * kSecond;
    o.metricInterval = 0;
    Simulator sim(port, o);
    NodePool pool;
    pool.name = "p";
    pool.nodes = { sizedNode("big", "64", "256Gi"), sizedNode("small", "4", "32Gi") };
    sim.addNodePool(pool);
    auto services = std::make_shared<std::vector<api::Service>>(1);
    services->front().meta.name = "web";
    services->front().meta.namespace_ = "default";
    services->front().selector = { { "app", "web" } };
    auto owner = std::make_shared<api::PodController>();
    owner->kind = api::PodController::Kind::ReplicaSet;
    owner->meta.name = "web";
    owner->meta.namespace_ = "default";
    owner->selector.emplace().matchLabels = { { "app", "web" } };
    std::vector<workload::JobSpec> jobs;
    for (int i = 0; i < 6; ++i) {
        workload::JobSpec job = gpuJob("web" + std::to_string(i), i, 1000);
        auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
        tmpl->spec.resourceClaims.clear();
        tmpl->meta.labels = { { "app", "web" } };
        job.tasks[0].pod = tmpl;
        if (how == Selected::ByService)
            job.services = services;
        if (how == Selected::ByReplicaSet)
            job.owner = owner;
        jobs.push_back(std::move(job));
    }
    sim.setArrivals(source(std::move(jobs)));
    Placements log;
    sim.addRecorder(&log);
    sim.run();
    return log.nodeOf;
}

} // namespace service_spread_run

using namespace service_spread_run;

TEST(ServiceSpreadRun, AServiceSpreadsThePodsItSelectsAsAReplicaSetDoes)
{
    const auto alone = run(Selected::Nothing);
    ASSERT_EQ(alone.size(), 6u);
    for (const auto& [pod, node] : alone)
        EXPECT_EQ(node, "big") << pod;
    const auto byService = run(Selected::ByService);
    ASSERT_EQ(byService.size(), 6u);
    EXPECT_NE(byService, alone);
    EXPECT_EQ(byService, run(Selected::ByReplicaSet));
}
