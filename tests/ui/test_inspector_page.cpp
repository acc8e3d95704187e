// SPDX-License-Identifier: Apache-2.0
// The allocation inspector steps through the allocator's search for a known pod of the teaching
// scenario "GPU and NIC on the same PCIe root" and ends at the devices `drasim allocate` gives it.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include "core/allocator/allocation_trace.h"
#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/jobs/trace_job.h"
#include "ui/mainwindow.h"
#include "ui/models/trace_steps_model.h"
#include "ui/pages/inspector_page.h"

using drasim::allocator::TraceStep;
using drasim::ui::InspectorPage;
using drasim::ui::MainWindow;
using drasim::ui::TraceStepsModel;

TEST(InspectorPage, StepsThroughAKnownPodToTheExpectedPicks)
{
    MainWindow w;
    w.setRunStorePath(QString());
    InspectorPage* page = w.inspectorPage();
    QAbstractItemModelTester tester(
        page->stepsModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy traced(page, &InspectorPage::traced);
    w.openPaths({ sourcePath("scenarios/learn/06-gpu-nic-same-pcie-root") });
    ASSERT_TRUE(traced.wait(60000));
    EXPECT_EQ(page->pod(), QStringLiteral("default/worker-0"));

    // worker-1 comes after worker-0, which took gpu-0 and the NIC beside it.
    ASSERT_TRUE(page->selectPod(QStringLiteral("default/worker-1")));
    ASSERT_TRUE(traced.wait(60000));
    ASSERT_GT(page->stepCount(), 3);
    EXPECT_EQ(page->step(), 0);
    EXPECT_TRUE(page->currentText().startsWith(QStringLiteral("try node ")))
        << page->currentText().toStdString();
    EXPECT_TRUE(page->currentPicks().isEmpty());

    // Step by step: the first candidate is the NIC worker-0 took; "in use" is checked before the
    // selectors, so that is why it is turned away.
    page->next();
    EXPECT_EQ(page->step(), 1);
    EXPECT_EQ(page->currentText().toStdString(),
        "claim default/worker-1-gpu-nic, request gpu (device 1 of 1): dra.net/h100-0/pci-0000-18-00-0 "
        "rejected: it is already allocated (to another claim, or earlier in this search)");
    EXPECT_TRUE(page->detailView()->toPlainText().contains(QStringLiteral("failed")));

    // The next decision picks gpu-1; a NIC on another PCIe root is turned away by the constraint.
    page->nextDecision();
    EXPECT_TRUE(page->currentText().contains(QStringLiteral(": pick gpu.nvidia.com/h100-0/gpu-1")))
        << page->currentText().toStdString();
    EXPECT_EQ(page->currentPicks().size(), 1);
    bool constraintSeen = false;
    const auto& events = page->outcome()->trace.events();
    for (const auto& e : events)
        constraintSeen = constraintSeen
            || (e.step == TraceStep::Rejected
                && e.reason == drasim::allocator::DeviceRejectReason::ConstraintMismatch
                && e.detail.find("matchAttribute resource.kubernetes.io/pcieRoot") == 0);
    EXPECT_TRUE(constraintSeen);

    // Previous goes back; run to end shows the final picks, the ones drasim allocate gives.
    page->previous();
    EXPECT_TRUE(page->currentPicks().isEmpty());
    page->runToEnd();
    EXPECT_EQ(page->step(), page->stepCount() - 1);
    EXPECT_TRUE(page->currentText().contains(QStringLiteral("every claim has its devices")));
    EXPECT_EQ(page->currentPicks().join(QLatin1Char('|')).toStdString(),
        "default/worker-1-gpu-nic gpu → gpu.nvidia.com/h100-0/gpu-1|"
        "default/worker-1-gpu-nic nic → dra.net/h100-0/pci-0000-40-00-0");
    ASSERT_TRUE(page->outcome()->result.scheduled);
    EXPECT_EQ(page->outcome()->result.nodeName, "h100-0");
    page->next(); // stays at the end
    EXPECT_EQ(page->step(), page->stepCount() - 1);
    page->restart();
    EXPECT_EQ(page->step(), 0);
    EXPECT_EQ(
        page->stepsModel()->index(0, 0).data(TraceStepsModel::StepKindRole).toInt(), int(TraceStep::Attempt));
}

TEST(InspectorPage, APodThatCannotBePlacedEndsWithoutPicks)
{
    MainWindow w;
    w.setRunStorePath(QString());
    InspectorPage* page = w.inspectorPage();
    QSignalSpy traced(page, &InspectorPage::traced);
    w.openPaths({ sourcePath("scenarios/learn/06-gpu-nic-same-pcie-root") });
    ASSERT_TRUE(traced.wait(60000));
    ASSERT_TRUE(page->selectPod(QStringLiteral("default/worker-l40s")));
    ASSERT_TRUE(traced.wait(60000));
    EXPECT_FALSE(page->outcome()->result.scheduled);
    page->runToEnd();
    EXPECT_TRUE(page->currentPicks().isEmpty());
    EXPECT_TRUE(page->detailView()->toPlainText().contains(QStringLiteral("stays pending")));
    EXPECT_FALSE(page->selectPod(QStringLiteral("default/no-such-pod")));
}
