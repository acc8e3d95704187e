// SPDX-License-Identifier: Apache-2.0
#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "ui/models/workload_summary_model.h"

using drasim::ui::WorkloadSummaryModel;

TEST(WorkloadSummaryModel, OneRowPerWorkloadWithWaitsAsDurations)
{
    WorkloadSummaryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    std::vector<drasim::sim::WorkloadSummary> rows(2);
    rows[0].name = "training";
    rows[0].jobsArrived = 12;
    rows[0].jobsSucceeded = 10;
    rows[0].podsPendingAtEnd = 2;
    rows[0].waitSeconds.p95 = 90;
    rows[1].name = "inference";
    model.setWorkloads(rows);

    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.index(0, WorkloadSummaryModel::NameColumn).data().toString().toStdString(), "training");
    EXPECT_EQ(model.index(0, WorkloadSummaryModel::JobsColumn).data().toLongLong(), 12);
    EXPECT_EQ(model.index(0, WorkloadSummaryModel::PendingColumn).data().toLongLong(), 2);
    EXPECT_EQ(model.index(0, WorkloadSummaryModel::WaitP95Column).data().toString().toStdString(), "1m30s");
    EXPECT_EQ(
        model.index(0, WorkloadSummaryModel::WaitP95Column).data(WorkloadSummaryModel::SecondsRole), 90.0);
    EXPECT_FALSE(
        model.index(0, WorkloadSummaryModel::JobsColumn).data(WorkloadSummaryModel::SecondsRole).isValid());
    EXPECT_EQ(model.headerData(WorkloadSummaryModel::WaitP95Column, Qt::Horizontal).toString().toStdString(),
        "Wait p95");

    model.setWorkloads({});
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(WorkloadSummaryModel, AWaitPodsNeverScheduledCouldStillRaiseIsShownAsABound)
{
    WorkloadSummaryModel model;
    std::vector<drasim::sim::WorkloadSummary> rows(1);
    rows[0].name = "training";
    rows[0].waitSeconds.p50 = 60;
    rows[0].waitSeconds.p95 = 600;
    rows[0].waitSeconds.atLeast.p95 = true;
    model.setWorkloads(rows);
    EXPECT_EQ(model.index(0, WorkloadSummaryModel::WaitP50Column).data().toString().toStdString(), "1m");
    EXPECT_EQ(model.index(0, WorkloadSummaryModel::WaitP95Column).data().toString().toStdString(), "≥ 10m");
}
