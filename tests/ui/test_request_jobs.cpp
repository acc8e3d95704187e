// SPDX-License-Identifier: Apache-2.0
// The jobs whose requests cannot be stopped (a trace, an editor check, a store read, a schedule or
// an explanation; JobThreads one at a time): of quick requests only the newest is reported, with
// what it asked for, and destroying a job mid-request waits for the request and frees what it
// held before the destructor returns.
#include <memory>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include "core/api/object_set.h"
#include "core/session/session.h"
#include "tests/ui/source_path.h"
#include "ui/jobs/allocation_job.h"
#include "ui/jobs/compare_job.h"
#include "ui/jobs/trace_job.h"
#include "ui/jobs/validation_job.h"

using drasim::api::ObjectSet;
using drasim::session::Session;

namespace {

/// The objects of the teaching scenario with two pods sharing a PCIe root.
std::shared_ptr<const ObjectSet> pcieObjects()
{
    Session session;
    if (!session.open({ sourcePath("scenarios/learn/06-gpu-nic-same-pcie-root").toStdString() }))
        return nullptr;
    return std::make_shared<const ObjectSet>(session.objects());
}

/// Waits for `spy`'s first signal, then makes sure no other follows.
testing::AssertionResult exactlyOne(QSignalSpy& spy)
{
    if (!spy.wait(60000))
        return testing::AssertionFailure() << "nothing was reported";
    if (spy.wait(300) || spy.count() != 1)
        return testing::AssertionFailure() << spy.count() << " requests were reported, not only the newest";
    return testing::AssertionSuccess();
}

const char* const kDeviceClass
    = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu\n"
      "spec:\n  selectors:\n  - cel:\n      expression: device.driver == \"x.example.com\"\n";

} // namespace

TEST(TraceJob, OfQuickRequestsOnlyTheNewestIsReported)
{
    auto objects = pcieObjects();
    ASSERT_TRUE(objects);
    drasim::ui::TraceJob job;
    QSignalSpy traced(&job, &drasim::ui::TraceJob::traced);
    job.trace(objects, QStringLiteral("default/worker-0"));
    job.trace(objects, QStringLiteral("default/missing"));
    job.trace(objects, QStringLiteral("default/worker-1"));
    ASSERT_TRUE(exactlyOne(traced));
    const auto outcome = traced.at(0).at(0).value<std::shared_ptr<const drasim::ui::TraceOutcome>>();
    EXPECT_EQ(outcome->podKey, QStringLiteral("default/worker-1"));
    EXPECT_TRUE(outcome->ok);
    EXPECT_TRUE(outcome->found);
}

TEST(TraceJob, DestroyingItMidTraceWaitsForTheTraceAndFreesWhatItHeld)
{
    auto objects = pcieObjects();
    ASSERT_TRUE(objects);
    const std::weak_ptr<const ObjectSet> held = objects;
    {
        drasim::ui::TraceJob job;
        job.trace(objects, QStringLiteral("default/worker-0"));
        job.trace(std::move(objects), QStringLiteral("default/worker-1"));
    }
    EXPECT_TRUE(held.expired()) << "a trace outlived its job";
}

TEST(ValidationJob, OfQuickRequestsOnlyTheNewestIsReported)
{
    drasim::ui::ValidationJob job;
    QSignalSpy validated(&job, &drasim::ui::ValidationJob::validated);
    job.validate(QStringLiteral("kind: [unclosed"), QStringLiteral("a.yaml"));
    job.validate(QString::fromUtf8(kDeviceClass), QStringLiteral("b.yaml"));
    job.validate(QString::fromUtf8(kDeviceClass), QStringLiteral("c.yaml"));
    EXPECT_TRUE(job.isRunning());
    ASSERT_TRUE(exactlyOne(validated));
    EXPECT_FALSE(job.isRunning());
    const auto outcome = validated.at(0).at(0).value<std::shared_ptr<const drasim::ui::ValidationOutcome>>();
    EXPECT_EQ(outcome->fileName, QStringLiteral("c.yaml"));
    for (const auto& d : outcome->diagnostics)
        EXPECT_NE(d.severity, drasim::Severity::Error) << d.message;
    ASSERT_TRUE(outcome->objects);
    EXPECT_EQ(outcome->objects->deviceClasses.size(), 1u);
}

TEST(CompareJob, OfQuickListingsOnlyTheNewestIsReported)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    drasim::ui::CompareJob job;
    QSignalSpy listed(&job, &drasim::ui::CompareJob::runsListed);
    job.listRuns(QString()); // "no run store"
    job.listRuns(dir.filePath(QStringLiteral("runs.db")));
    ASSERT_TRUE(exactlyOne(listed));
    EXPECT_EQ(listed.at(0).at(1).toString(), QString()) << "the older listing's error was reported";
    const auto runs = listed.at(0).at(0).value<std::shared_ptr<const drasim::ui::RunList>>();
    ASSERT_TRUE(runs);
    EXPECT_TRUE(runs->empty());
}

TEST(AllocationJob, ScrubbingReportsOnlyTheNewestTime)
{
    Session session;
    ASSERT_TRUE(session.open({ defaultScenario().toStdString() }));
    ASSERT_TRUE(session.prepared());
    drasim::ui::AllocationJob job;
    QSignalSpy explained(&job, &drasim::ui::AllocationJob::explainedAt);
    for (qint64 at = 1; at <= 5; ++at)
        job.explainAt(session.prepared(), 1, at * 60, QStringLiteral("default/nobody"));
    ASSERT_TRUE(exactlyOne(explained));
    EXPECT_EQ(explained.at(0).at(0).toString(), QStringLiteral("default/nobody"));
    EXPECT_EQ(explained.at(0).at(1).toLongLong(), 5 * 60);
    const auto answer = explained.at(0).at(2).value<std::shared_ptr<const drasim::sim::PodExplanationAt>>();
    ASSERT_TRUE(answer);
    EXPECT_FALSE(answer->problem.empty()) << "a pod the scenario does not have was explained";
}
