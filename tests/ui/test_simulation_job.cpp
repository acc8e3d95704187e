// SPDX-License-Identifier: Apache-2.0
// The simulation job's runs (on JobThreads): destroying the job mid-run waits for the run and frees
// what it held before the destructor returns, a newer start drops what the older run still posts,
// and every run in flight is waited for, not only the newest.
#include <memory>

#include <QObject>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include "core/session/session.h"
#include "tests/ui/source_path.h"
#include "ui/jobs/simulation_job.h"

using drasim::session::Session;
using drasim::sim::PreparedScenario;
using drasim::ui::SimulationJob;
using drasim::ui::SimulationOutcome;

namespace {

/// A session of the scenario at `path` (from the source tree), opened without errors.
std::unique_ptr<Session> openScenario(const char* path)
{
    auto session = std::make_unique<Session>();
    if (!session->open({ sourcePath(path).toStdString() }) || !session->prepared())
        return nullptr;
    return session;
}

} // namespace

TEST(SimulationJob, DestroyingItMidRunWaitsForTheRunAndNothingArrivesAfterwards)
{
    auto session = openScenario("scenarios/sim/alibaba-default/scenario.yaml"); // seconds to run
    ASSERT_TRUE(session);
    const std::weak_ptr<const PreparedScenario> prepared = session->prepared();
    auto job = std::make_unique<SimulationJob>();
    QSignalSpy samples(job.get(), &SimulationJob::samplesAvailable);
    QSignalSpy finished(job.get(), &SimulationJob::finished);
    QObject receiver;
    bool gone = false;
    int afterwards = 0;
    auto count = [&]() { afterwards += gone ? 1 : 0; };
    QObject::connect(job.get(), &SimulationJob::samplesAvailable, &receiver, count);
    QObject::connect(job.get(), &SimulationJob::progressChanged, &receiver, count);
    QObject::connect(job.get(), &SimulationJob::finished, &receiver, count);
    job->start(session->prepared(), QString());
    session.reset(); // from here on only the run holds the scenario
    ASSERT_TRUE(samples.wait(60000));
    ASSERT_EQ(finished.count(), 0) << "the run ended before the job was destroyed: not mid-run";

    job.reset();
    gone = true;
    // The run returned and its thread, with everything its work captured, is gone already.
    EXPECT_TRUE(prepared.expired()) << "a worker still holds the run's scenario after the job is gone";
    QTest::qWait(300);
    EXPECT_EQ(afterwards, 0) << "something of the run arrived after the job was destroyed";
}

TEST(SimulationJob, ASecondStartDropsTheFirstRunsOutcome)
{
    auto large = openScenario("scenarios/sim/alibaba-default/scenario.yaml");
    auto small = openScenario("scenarios/sim/default/scenario.yaml");
    ASSERT_TRUE(large && small);
    SimulationJob job;
    QSignalSpy conditions(&job, &SimulationJob::conditionsReady);
    QSignalSpy finished(&job, &SimulationJob::finished);
    job.start(large->prepared(), QString());
    QTest::qWait(100); // the first run is under way
    job.start(small->prepared(), QString());
    ASSERT_TRUE(finished.wait(60000));
    EXPECT_FALSE(finished.wait(500)) << "the first run's outcome arrived too";
    ASSERT_EQ(finished.count(), 1);
    const auto outcome = finished.at(0).at(0).value<std::shared_ptr<const SimulationOutcome>>();
    ASSERT_TRUE(outcome && outcome->summary);
    EXPECT_FALSE(outcome->cancelled);
    EXPECT_EQ(outcome->summary->info.scenario, small->prepared()->name);
    EXPECT_FALSE(job.isRunning());
    // What the first run posted after the second started never reached the job: the conditions
    // the job announced last are the second run's.
    ASSERT_GE(conditions.count(), 1);
    EXPECT_EQ(conditions.last().at(0).value<std::shared_ptr<const drasim::sim::NodeConditions>>(),
        outcome->conditions);
}

TEST(SimulationJob, DestructionWaitsForEveryRunStillInFlight)
{
    auto large = openScenario("scenarios/sim/alibaba-default/scenario.yaml");
    auto small = openScenario("scenarios/sim/default/scenario.yaml");
    ASSERT_TRUE(large && small);
    const std::weak_ptr<const PreparedScenario> first = large->prepared(), second = small->prepared();
    {
        SimulationJob job;
        // The first run builds a large cluster; the second, started at once, cancels it and is small.
        job.start(large->prepared(), QString());
        job.start(small->prepared(), QString());
        EXPECT_EQ(job.runsInFlight(), 2);
        large.reset();
        small.reset();
    }
    // Both runs returned and let go of their scenarios before the job was gone.
    EXPECT_TRUE(first.expired()) << "the cancelled older run outlived the job";
    EXPECT_TRUE(second.expired()) << "the newest run outlived the job";
}
