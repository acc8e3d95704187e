// SPDX-License-Identifier: Apache-2.0
// Speed tables in a run (core/sim/work_pace.h): a pod works its duration x (reference speed /
// speed of its devices), a pod with devices of several models at the slowest one's pace, a gang
// at its slowest member's, and without a table (or with every factor 1) nothing changes.
#include <algorithm>
#include <map>
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

/// gpuPool() whose devices report `model` (the attribute utilisation by model reads).
NodePool modelPool(const std::string& prefix, int count, int gpus, const std::string& model)
{
    NodePool pool = gpuPool(prefix, count, gpus);
    for (auto& n : pool.nodes)
        for (auto& d : n.slices[0].devices)
            d.attributes["model"].stringValue = model;
    return pool;
}

std::shared_ptr<const workload::SpeedTable> table(
    const std::string& reference, std::map<std::string, double> speeds, const std::string& attribute = {})
{
    auto t = std::make_shared<workload::SpeedTable>();
    t->reference = reference;
    t->speeds = std::move(speeds);
    t->attribute = attribute;
    return t;
}

struct PaceLog : RunRecorder
{
    std::vector<std::string> lines;
    RunSummary summary;
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type == PodEventType::Scheduled || e.type == PodEventType::Succeeded)
            lines.push_back(
                formatDuration(e.time) + " " + podEventTypeName(e.type) + " " + e.pod + " @" + e.node);
    }
    void onRunFinished(const RunSummary& s) override { summary = s; }
    bool has(const std::string& line) const
    {
        return std::find(lines.begin(), lines.end(), line) != lines.end();
    }
    std::string dump() const
    {
        std::string s;
        for (const auto& l : lines)
            s += l + "\n";
        return s;
    }
};

PaceLog runWith(std::vector<NodePool> pools, std::vector<workload::JobSpec> jobs, bool podGroups = false,
    std::vector<InjectedEvent> events = {})
{
    scheduler::Cluster cluster(oneAndTwoGpuTemplates());
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "pace";
    o.duration = 5000 * kSecond;
    o.metricInterval = 0;
    o.podGroups = podGroups;
    Simulator sim(port, o);
    for (auto& pool : pools)
        sim.addNodePool(pool);
    sim.setArrivals(source(std::move(jobs)));
    for (auto& e : events)
        sim.addEvent(std::move(e));
    PaceLog log;
    sim.addRecorder(&log);
    sim.run();
    return log;
}

workload::JobSpec timedJob(
    const std::string& name, double seconds, int gpus, std::shared_ptr<const workload::SpeedTable> speed)
{
    workload::JobSpec job = gpuJob(name, 0, seconds, gpus);
    job.speed = std::move(speed);
    return job;
}

/// What a law run keeps of each job: where and when its pods bound, and when its last pod ended.
struct JobRecord
{
    std::vector<std::string> bindings; ///< "pod@node@time", in event order
    SimTime end = -1;
    int succeeded = 0;
};

struct JobLog : RunRecorder
{
    std::map<std::string, JobRecord> jobs;
    void onPodEvent(const PodEvent& e) override
    {
        JobRecord& j = jobs[e.job];
        if (e.type == PodEventType::Scheduled)
            j.bindings.push_back(e.pod + "@" + e.node + "@" + std::to_string(e.time));
        if (e.type == PodEventType::Succeeded) {
            j.end = std::max(j.end, e.time);
            ++j.succeeded;
        }
    }
};

struct PaceLawCase
{
    NodePool pool;
    std::map<std::string, std::string> modelOfNode;
    std::vector<workload::JobSpec> jobs;
    workload::SpeedTable table;
};

PaceLawCase randomPaceCase(uint64_t seed)
{
    std::mt19937_64 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const char* const models[] = { "A", "B", "C" };
    const double speeds[] = { 0.5, 1, 1.5, 2, 3 };
    PaceLawCase c;
    for (const char* m : models)
        c.table.speeds[m] = speeds[pick(0, 4)];
    c.table.reference = models[pick(0, 2)];
    c.pool = gpuPool("n", pick(1, 6), pick(1, 4));
    for (auto& n : c.pool.nodes) {
        const std::string model = models[pick(0, 2)];
        c.modelOfNode[n.node.meta.name] = model;
        for (auto& d : n.slices[0].devices)
            d.attributes["model"].stringValue = model;
    }
    const int jobs = pick(1, 8);
    for (int i = 0; i < jobs; ++i) {
        workload::JobSpec job = gpuJob("j" + std::to_string(i), pick(0, 200), pick(50, 500), pick(1, 2));
        job.parallelism = job.completions = pick(1, 4);
        if (pick(0, 1) == 1)
            job.group = workload::GroupSpec { true, pick(0, job.parallelism), {} };
        c.jobs.push_back(job);
    }
    return c;
}

JobLog runLaw(const PaceLawCase& c, const workload::SpeedTable& table)
{
    scheduler::Cluster cluster(oneAndTwoGpuTemplates());
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "pace-laws";
    o.duration = 4000 * kSecond;
    o.metricInterval = 0;
    o.podGroups = true;
    Simulator sim(port, o);
    sim.addNodePool(c.pool);
    auto speed = std::make_shared<const workload::SpeedTable>(table);
    std::vector<workload::JobSpec> jobs = c.jobs;
    for (auto& j : jobs)
        j.speed = speed;
    sim.setArrivals(source(std::move(jobs)));
    JobLog log;
    sim.addRecorder(&log);
    sim.run();
    return log;
}

} // namespace

TEST(WorkPace, WithoutATableOrWithEveryFactorOneRunTimesAreTheDurations)
{
    for (auto speed :
        { std::shared_ptr<const workload::SpeedTable>(), table("A", { { "A", 2 }, { "B", 2 } }) }) {
        auto log = runWith({ modelPool("n", 1, 1, "B") }, { timedJob("train", 1000, 1, speed) });
        EXPECT_TRUE(log.has("16m40s Succeeded default/train-0 @n-0")) << log.dump();
        EXPECT_TRUE(log.summary.speed.empty());
    }
}

TEST(WorkPace, AFasterModelShortensAndASlowerOneLengthensTheRunTime)
{
    auto speed = table("A", { { "A", 312 }, { "B", 624 }, { "C", 156 } });
    auto log = runWith({ modelPool("fast", 1, 1, "B"), modelPool("slow", 1, 1, "C") },
        { timedJob("one", 1000, 1, speed), timedJob("two", 1000, 1, speed) });
    EXPECT_TRUE(log.has("8m20s Succeeded default/one-0 @fast-0")) << log.dump();
    EXPECT_TRUE(log.has("33m20s Succeeded default/two-0 @slow-0")) << log.dump();
    ASSERT_EQ(log.summary.speed.size(), 1u);
    const SpeedSummary& s = log.summary.speed[0];
    EXPECT_EQ(s.workload, "w");
    EXPECT_EQ(s.reference, "A");
    ASSERT_EQ(s.models.size(), 2u);
    EXPECT_EQ(s.models[0].model, "B");
    EXPECT_DOUBLE_EQ(s.models[0].factor, 2);
    EXPECT_EQ(s.models[0].pods, 1);
    EXPECT_DOUBLE_EQ(s.models[0].podHours, 500.0 / 3600);
    EXPECT_EQ(s.models[1].model, "C");
    EXPECT_DOUBLE_EQ(s.models[1].factor, 0.5);
    EXPECT_DOUBLE_EQ(s.models[1].podHours, 2000.0 / 3600);
    // 500 s saved on B, 1000 s lost on C.
    EXPECT_DOUBLE_EQ(s.savedPodHours, -500.0 / 3600);
}

TEST(WorkPace, AModelTheTableDoesNotListWorksAtTheReferencesPace)
{
    auto log
        = runWith({ modelPool("n", 1, 1, "X") }, { timedJob("train", 1000, 1, table("A", { { "A", 1 } })) });
    EXPECT_TRUE(log.has("16m40s Succeeded default/train-0 @n-0")) << log.dump();
    EXPECT_TRUE(log.summary.speed.empty());
}

TEST(WorkPace, ANamedAttributeNamesTheModel)
{
    NodePool pool = modelPool("n", 1, 1, "B");
    pool.nodes[0].slices[0].devices[0].attributes["gpu.example.com/productName"].stringValue = "Fast GPU";
    auto speed = table("Ref", { { "Ref", 1 }, { "Fast GPU", 4 }, { "B", 2 } }, "productName");
    auto log = runWith({ pool }, { timedJob("train", 1000, 1, speed) });
    EXPECT_TRUE(log.has("4m10s Succeeded default/train-0 @n-0")) << log.dump();
}

TEST(WorkPace, APodWithDevicesOfTwoModelsWorksAtTheSlowerOnesPace)
{
    NodePool pool = modelPool("n", 1, 2, "B");
    pool.nodes[0].slices[0].devices[1].attributes["model"].stringValue = "C";
    auto log = runWith(
        { pool }, { timedJob("train", 1200, 2, table("A", { { "A", 1 }, { "B", 3 }, { "C", 2 } })) });
    EXPECT_TRUE(log.has("10m Succeeded default/train-0 @n-0")) << log.dump();
}

// A gang's members work in lockstep: the member on the fast node waits for its peer's pace. Pods
// of a job without a gang work on their own.
TEST(WorkPace, AGangWorksAtItsSlowestMembersPaceOtherJobsPodsEachAtTheirOwn)
{
    auto speed = table("A", { { "A", 1 }, { "B", 4 }, { "C", 2 } });
    workload::JobSpec job = timedJob("train", 1000, 1, speed);
    job.parallelism = job.completions = 2;
    auto plain = runWith({ modelPool("fast", 1, 1, "B"), modelPool("slow", 1, 1, "C") }, { job });
    EXPECT_TRUE(plain.has("4m10s Succeeded default/train-0 @fast-0")) << plain.dump();
    EXPECT_TRUE(plain.has("8m20s Succeeded default/train-1 @slow-0")) << plain.dump();
    job.group = workload::GroupSpec { true, 0, {} };
    auto gang = runWith({ modelPool("fast", 1, 1, "B"), modelPool("slow", 1, 1, "C") }, { job }, true);
    EXPECT_TRUE(gang.has("8m20s Succeeded default/train-0 @fast-0")) << gang.dump();
    EXPECT_TRUE(gang.has("8m20s Succeeded default/train-1 @slow-0")) << gang.dump();
    ASSERT_EQ(gang.summary.speed.size(), 1u);
    ASSERT_EQ(gang.summary.speed[0].models.size(), 1u);
    EXPECT_EQ(gang.summary.speed[0].models[0].model, "C");
    EXPECT_EQ(gang.summary.speed[0].models[0].pods, 2);
}

// The slow member's node fails at 100 s: the fast member had done 200 s of work at the gang's
// pace 2 and does the 800 s left at its own pace 4, done at 300 s.
TEST(WorkPace, WhenTheSlowestMemberStopsThePeersGoOnAtTheirOwnPace)
{
    auto speed = table("A", { { "A", 1 }, { "B", 4 }, { "C", 2 } });
    workload::JobSpec job = timedJob("train", 1000, 1, speed);
    job.parallelism = job.completions = 2;
    job.group = workload::GroupSpec { true, 0, {} };
    InjectedEvent fail;
    fail.at = 100 * kSecond;
    fail.type = InjectedEvent::Type::NodeFailure;
    fail.node = "slow-0";
    job.backoffLimit = 1;
    auto log
        = runWith({ modelPool("fast", 1, 1, "B"), modelPool("slow", 1, 1, "C") }, { job }, true, { fail });
    EXPECT_TRUE(log.has("5m Succeeded default/train-0 @fast-0")) << log.dump();
}

// The law: doubling one model's speed never lengthens a job that ran on it. Compared are the jobs
// whose pods bound on the same nodes at the same times in both runs (a faster model frees devices
// earlier, which may place later jobs elsewhere; those are not the same job run faster).
TEST(WorkPace, DoublingAModelsSpeedNeverLengthensAJobThatRanOnIt)
{
    int compared = 0;
    int shorter = 0;
    for (uint64_t seed = 9'100'000; seed < 9'100'400; ++seed) {
        PaceLawCase c = randomPaceCase(seed);
        // Not the reference: its speed is what the durations were measured at, so doubling it
        // makes every other model relatively slower.
        std::string faster = std::string(1, char('A' + seed % 3));
        if (faster == c.table.reference)
            faster = std::string(1, char('A' + (seed + 1) % 3));
        workload::SpeedTable doubled = c.table;
        doubled.speeds[faster] *= 2;
        JobLog base = runLaw(c, c.table);
        JobLog fast = runLaw(c, doubled);
        for (const auto& [name, before] : base.jobs) {
            const JobRecord& after = fast.jobs[name];
            bool ranOnIt = false;
            for (const auto& b : before.bindings)
                ranOnIt = ranOnIt
                    || c.modelOfNode[b.substr(b.find('@') + 1, b.rfind('@') - b.find('@') - 1)] == faster;
            if (!ranOnIt || before.bindings != after.bindings || before.end < 0)
                continue;
            ++compared;
            ASSERT_GE(after.end, 0) << "seed " << seed << " job " << name;
            EXPECT_LE(after.end, before.end) << "seed " << seed << " job " << name;
            shorter += after.end < before.end ? 1 : 0;
        }
        if (::testing::Test::HasFailure())
            break;
    }
    // The law was exercised, not vacuously true.
    EXPECT_GT(compared, 300);
    EXPECT_GT(shorter, 200);
}

// Two pods share one claim (resourceClaimName): the second is bound without a new allocation and
// still works at its device's pace, as a share of a device counts as a device of its model.
TEST(WorkPace, PodsSharingAClaimWorkAtTheSharedDevicesPace)
{
    api::ObjectSet objects = oneAndTwoGpuTemplates();
    api::ResourceClaim shared;
    shared.meta.name = "shared";
    shared.meta.namespace_ = "default";
    shared.spec = objects.resourceClaimTemplates.front().spec;
    objects.resourceClaims.push_back(shared);
    workload::JobSpec job = timedJob("serve", 1000, 1, table("A", { { "A", 1 }, { "B", 4 } }));
    auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
    tmpl->spec.resourceClaims[0].resourceClaimTemplateName.reset();
    tmpl->spec.resourceClaims[0].resourceClaimName = "shared";
    job.tasks[0].pod = tmpl;
    job.parallelism = job.completions = 2;
    scheduler::Cluster cluster(std::move(objects));
    SchedulerClusterPort port(cluster);
    SimOptions o;
    o.scenarioName = "pace";
    o.duration = 5000 * kSecond;
    o.metricInterval = 0;
    Simulator sim(port, o);
    sim.addNodePool(modelPool("n", 1, 1, "B"));
    sim.setArrivals(source({ job }));
    PaceLog log;
    sim.addRecorder(&log);
    sim.run();
    EXPECT_TRUE(log.has("4m10s Succeeded default/serve-0 @n-0")) << log.dump();
    EXPECT_TRUE(log.has("4m10s Succeeded default/serve-1 @n-0")) << log.dump();
}

// checkpointInterval counts work: at pace 2 the pod had done 400 s of work when its node failed at
// 200 s and kept the 300 s of its last checkpoint; its replacement works the 700 s left in 350 s.
TEST(WorkPace, CheckpointsCountWorkNotRunTime)
{
    workload::JobSpec job = timedJob("train", 1000, 1, table("A", { { "A", 1 }, { "B", 2 } }));
    job.checkpointSeconds = 300;
    job.backoffLimit = 1;
    InjectedEvent fail;
    fail.at = 200 * kSecond;
    fail.type = InjectedEvent::Type::NodeFailure;
    fail.node = "n-0";
    auto log = runWith({ modelPool("n", 2, 1, "B") }, { job }, false, { fail });
    EXPECT_TRUE(log.has("3m30s Scheduled default/train-1 @n-1")) << log.dump();
    EXPECT_TRUE(log.has("9m20s Succeeded default/train-1 @n-1")) << log.dump();
}
