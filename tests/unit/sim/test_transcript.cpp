// SPDX-License-Identifier: Apache-2.0
// The event transcript: pod events and the scenario's injected events on one line each, in the
// order the engine applies them.
#include <gtest/gtest.h>

#include "core/sim/simulator.h"
#include "core/sim/transcript_writer.h"
#include "tests/unit/sim/fake_cluster.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

SimOptions transcriptOptions(SimTime duration)
{
    SimOptions o;
    o.scenarioName = "test";
    o.duration = duration;
    o.metricInterval = 0;
    return o;
}

InjectedEvent nodeEvent(SimTime at, InjectedEvent::Type type, const std::string& node)
{
    InjectedEvent e;
    e.at = at;
    e.type = type;
    e.node = node;
    return e;
}

} // namespace

TEST(Transcript, InjectedEventsComeBeforeThePodEventsTheyCause)
{
    FakeCluster cluster;
    Simulator sim(cluster, transcriptOptions(100 * kSecond));
    sim.addNodePool(gpuPool("n", 1, 1));
    workload::JobSpec job = gpuJob("train", 0, 30);
    job.backoffLimit = 1;
    sim.setArrivals(source({ job }));
    sim.addEvent(nodeEvent(10 * kSecond, InjectedEvent::Type::NodeFailure, "n-0"));
    sim.addEvent(nodeEvent(20 * kSecond, InjectedEvent::Type::NodeReturn, "n-0"));
    TranscriptWriter transcript;
    sim.addRecorder(&transcript);
    sim.run();
    EXPECT_EQ(transcript.text(),
        "0s Created default/train-0 job=train workload=w\n"
        "0s Scheduled default/train-0 node=n-0 devices=default/train-0-gpu:gpu.example.com/n-0/gpu-0\n"
        "10s NodeFailure n-0\n"
        "10s Failed default/train-0 node=n-0: node n-0 failed\n"
        "20s NodeReturn n-0\n"
        // The Job controller's 10 s backoff ends at 20 s, after the node's return (scheduled first).
        "20s Created default/train-1 job=train workload=w\n"
        "20s Scheduled default/train-1 node=n-0 devices=default/train-1-gpu:gpu.example.com/n-0/gpu-0\n"
        "50s Succeeded default/train-1 node=n-0\n");
}

TEST(Transcript, TaintsAndPoolsNameTheirSubjectAndDetail)
{
    InjectedEvent taint = nodeEvent(kHour, InjectedEvent::Type::DeviceTaint, "h100-0");
    taint.driver = "gpu.nvidia.com";
    taint.device = "gpu-0";
    taint.taint.key = "xid-79";
    taint.taint.value = "fatal";
    taint.taint.effect = "NoExecute";
    EXPECT_EQ(clusterEventOf(taint, kHour).detail,
        "driver=gpu.nvidia.com device=gpu-0 taint=xid-79=fatal:NoExecute");
    InjectedEvent untaint = taint;
    untaint.type = InjectedEvent::Type::NodeUntaint;
    untaint.driver.clear();
    untaint.device.clear();
    EXPECT_EQ(clusterEventOf(untaint, kHour).detail, "taint=xid-79");

    InjectedEvent rule;
    rule.type = InjectedEvent::Type::DeviceTaintRule;
    rule.pool = "drain";
    rule.selector.emplace();
    rule.selector->driver = "gpu.nvidia.com";
    rule.selector->pool = "h100-0";
    rule.taint.key = "maintenance";
    rule.taint.effect = "NoSchedule";
    ClusterEvent c = clusterEventOf(rule, 2 * kHour);
    EXPECT_EQ(c.kind, "DeviceTaintRule");
    EXPECT_EQ(c.subject, "drain");
    EXPECT_EQ(c.detail, "selector=driver:gpu.nvidia.com,pool:h100-0 taint=maintenance:NoSchedule");

    InjectedEvent add;
    add.type = InjectedEvent::Type::AddNodePool;
    auto pool = std::make_shared<NodePool>(gpuPool("burst", 3, 1));
    add.newPool = pool;
    c = clusterEventOf(add, 0);
    EXPECT_EQ(c.kind + " " + c.subject + " " + c.detail, "AddNodePool burst nodes=3");

    TranscriptWriter w;
    w.onClusterEvent(c);
    PodEvent e;
    e.time = 90 * kSecond;
    e.type = PodEventType::Unschedulable;
    e.pod = "default/a-0";
    e.message = "0/1 nodes are available:\n1 cannot allocate all claims.";
    w.onPodEvent(e);
    EXPECT_EQ(w.text(),
        "0s AddNodePool burst nodes=3\n"
        "1m30s Unschedulable default/a-0: 0/1 nodes are available:\\n1 cannot allocate all claims.\n");
}
