// SPDX-License-Identifier: Apache-2.0
// NoExecute device taints in the simulation, against the kube-scheduler model: evictions wait for
// tolerationSeconds (counted from the taint's event), DeviceTaintRule events taint by selector.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/node_taint_eviction.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

struct EvictionLog : RunRecorder
{
    std::vector<std::string> lines;
    void onPodEvent(const PodEvent& e) override
    {
        lines.push_back(formatDuration(e.time) + " " + podEventTypeName(e.type) + " " + e.pod
            + (e.message.empty() || e.type == PodEventType::Scheduled ? "" : " (" + e.message + ")"));
    }
    bool has(const std::string& line) const
    {
        return std::find(lines.begin(), lines.end(), line) != lines.end();
    }
    std::string all() const
    {
        std::string out;
        for (const auto& l : lines)
            out += l + "\n";
        return out;
    }
};

/// A class for the pools of gpuPool() and the template "gpu-1" the jobs of gpuJob() use, its
/// request tolerating `key` (effect NoExecute) for `seconds` when given.
api::ObjectSet objects(std::optional<int64_t> seconds, bool tolerate = true)
{
    api::ObjectSet o;
    api::DeviceClass cls;
    cls.meta.name = "gpu";
    o.deviceClasses.push_back(cls);
    api::ResourceClaimTemplate t;
    t.meta.name = "gpu-1";
    t.meta.namespace_ = "default";
    api::DeviceRequest r;
    r.name = "gpu";
    r.exactly.emplace();
    r.exactly->deviceClassName = "gpu";
    if (tolerate) {
        api::DeviceToleration tol;
        tol.key = "ecc";
        tol.op = "Exists";
        tol.effect = "NoExecute";
        tol.tolerationSeconds = seconds;
        r.exactly->tolerations.push_back(tol);
    }
    t.spec.requests.push_back(r);
    o.resourceClaimTemplates.push_back(t);
    return o;
}

SimOptions opts()
{
    SimOptions o;
    o.scenarioName = "taints";
    o.duration = 1000 * kSecond;
    o.metricInterval = 100 * kSecond;
    return o;
}

InjectedEvent deviceTaint(SimTime at)
{
    InjectedEvent e;
    e.at = at;
    e.type = InjectedEvent::Type::DeviceTaint;
    e.node = "n-0";
    e.taint.key = "ecc";
    e.taint.effect = "NoExecute";
    return e;
}

EvictionLog run(std::optional<int64_t> seconds, std::vector<InjectedEvent> events, bool tolerate = true)
{
    scheduler::Cluster cluster(objects(seconds, tolerate));
    SchedulerClusterPort port(cluster);
    Simulator sim(port, opts());
    sim.addNodePool(gpuPool("n", 1, 1));
    sim.setArrivals(source({ gpuJob("train", 0, 500) }));
    for (auto& e : events)
        sim.addEvent(e);
    EvictionLog log;
    sim.addRecorder(&log);
    sim.run();
    return log;
}

} // namespace

TEST(TaintEvictions, UntoleratedNoExecuteEvictsAtOnce)
{
    EvictionLog log = run(std::nullopt, { deviceTaint(100 * kSecond) }, false);
    EXPECT_TRUE(log.has("1m40s Evicted default/train-0 (device taint ecc:NoExecute)")) << log.all();
}

TEST(TaintEvictions, TolerationSecondsDelayTheEviction)
{
    EvictionLog log = run(60, { deviceTaint(100 * kSecond) });
    EXPECT_TRUE(log.has("2m40s Evicted default/train-0 (NoExecute device taint: tolerationSeconds elapsed)"))
        << log.all();
}

TEST(TaintEvictions, TolerationWithoutSecondsKeepsThePod)
{
    EvictionLog log = run(std::nullopt, { deviceTaint(100 * kSecond) });
    EXPECT_TRUE(log.has("8m20s Succeeded default/train-0")) << log.all();
}

TEST(TaintEvictions, RemovingTheTaintInTimeCancelsTheEviction)
{
    InjectedEvent untaint;
    untaint.at = 130 * kSecond;
    untaint.type = InjectedEvent::Type::DeviceUntaint;
    untaint.node = "n-0";
    untaint.taint.key = "ecc";
    EvictionLog log = run(60, { deviceTaint(100 * kSecond), untaint });
    EXPECT_TRUE(log.has("8m20s Succeeded default/train-0")) << log.all();
}

TEST(TaintEvictions, DeviceTaintRuleEventsTaintBySelectorAndGoAway)
{
    InjectedEvent rule;
    rule.at = 100 * kSecond;
    rule.type = InjectedEvent::Type::DeviceTaintRule;
    rule.pool = "drain-n-0";
    rule.selector = api::DeviceTaintSelector { "gpu.example.com", "n-0", std::nullopt };
    rule.taint.key = "ecc";
    rule.taint.effect = "NoExecute";
    InjectedEvent remove;
    remove.at = 200 * kSecond;
    remove.type = InjectedEvent::Type::DeviceTaintRuleDelete;
    remove.pool = "drain-n-0";
    EvictionLog log = run(30, { rule, remove });
    EXPECT_TRUE(log.has("2m10s Evicted default/train-0 (NoExecute device taint: tolerationSeconds elapsed)"))
        << log.all();
    EvictionLog untolerated = run(std::nullopt, { rule, remove }, false);
    EXPECT_TRUE(untolerated.has(
        "1m40s Evicted default/train-0 (DeviceTaintRule drain-n-0: device taint ecc:NoExecute)"))
        << untolerated.all();
}

namespace {

/// One GPU job whose pod tolerates the node taint `key` (NoExecute) for `seconds`, on a node that
/// gets that taint at 100 s (and loses it at `untaintAt` when given).
EvictionLog runNodeTaint(std::optional<int64_t> seconds, bool tolerate, std::optional<SimTime> untaintAt = {})
{
    scheduler::Cluster cluster(objects(std::nullopt, false));
    SchedulerClusterPort port(cluster);
    Simulator sim(port, opts());
    sim.addNodePool(gpuPool("n", 1, 1));
    workload::JobSpec job = gpuJob("train", 0, 500);
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
    if (tolerate) {
        api::Toleration t;
        t.key = "node.kubernetes.io/unreachable";
        t.op = "Exists";
        t.effect = "NoExecute";
        t.tolerationSeconds = seconds;
        tmpl->spec.tolerations.push_back(t);
    }
    job.tasks[0].pod = tmpl;
    sim.setArrivals(source({ job }));
    InjectedEvent taint;
    taint.at = 100 * kSecond;
    taint.type = InjectedEvent::Type::NodeTaint;
    taint.node = "n-0";
    taint.taint.key = "node.kubernetes.io/unreachable";
    taint.taint.effect = "NoExecute";
    sim.addEvent(taint);
    if (untaintAt) {
        InjectedEvent untaint = taint;
        untaint.at = *untaintAt;
        untaint.type = InjectedEvent::Type::NodeUntaint;
        sim.addEvent(untaint);
    }
    EvictionLog log;
    sim.addRecorder(&log);
    sim.run();
    return log;
}

} // namespace

TEST(NodeTaintEvictions, UntoleratedNoExecuteEvictsAtOnce)
{
    EvictionLog log = runNodeTaint(std::nullopt, false);
    EXPECT_TRUE(log.has("1m40s Evicted default/train-0 (NoExecute taint of node n-0)")) << log.all();
}

TEST(NodeTaintEvictions, TolerationSecondsCountFromTheTaint)
{
    EvictionLog log = runNodeTaint(300, true);
    EXPECT_TRUE(log.has("6m40s Evicted default/train-0 (NoExecute taint of node n-0)")) << log.all();
}

TEST(NodeTaintEvictions, ForeverAndCancelled)
{
    EXPECT_TRUE(runNodeTaint(std::nullopt, true).has("8m20s Succeeded default/train-0"));
    EvictionLog cancelled = runNodeTaint(300, true, 200 * kSecond);
    EXPECT_TRUE(cancelled.has("8m20s Succeeded default/train-0")) << cancelled.all();
}

TEST(NodeTaintEvictions, DelayRulesOfTheController)
{
    auto tol = [](std::string key, std::optional<int64_t> s, std::string effect = "NoExecute") {
        api::Toleration t;
        t.key = std::move(key);
        t.op = "Exists";
        t.effect = std::move(effect);
        t.tolerationSeconds = s;
        return t;
    };
    const api::Taint a { "a", "", "NoExecute", "" }, b { "b", "", "NoExecute", "" },
        soft { "c", "", "NoSchedule", "" };
    using scheduler::noExecuteEvictionDelay;
    EXPECT_FALSE(noExecuteEvictionDelay({ soft }, {})) << "only NoExecute taints evict";
    EXPECT_EQ(noExecuteEvictionDelay({ a }, {}), 0.0);
    EXPECT_EQ(noExecuteEvictionDelay({ a, b }, { tol("a", 60) }), 0.0) << "b is not tolerated";
    EXPECT_EQ(noExecuteEvictionDelay({ a, b }, { tol("a", 60), tol("b", 30) }), 30.0);
    EXPECT_FALSE(noExecuteEvictionDelay({ a }, { tol("a", std::nullopt) }));
    EXPECT_EQ(noExecuteEvictionDelay({ a }, { tol("a", -1) }), 0.0);
    EXPECT_EQ(noExecuteEvictionDelay({ a }, { tol("a", 90, "") }), 90.0)
        << "an effect-less toleration counts";
    // The first matching toleration is the one used: a later shorter one does not matter.
    EXPECT_EQ(noExecuteEvictionDelay({ a }, { tol("a", 90), tol("", 10) }), 90.0);
}
