// SPDX-License-Identifier: Apache-2.0
// The run's time series as a table, checked by QAbstractItemModelTester while series appear
// mid-run (columns inserted), rows arrive in batches and a new run resets the model.
#include <cmath>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include "core/sim/run_recorder.h"
#include "ui/models/run_series_model.h"

using drasim::sim::kMinute;
using drasim::sim::MetricSample;
using drasim::sim::SeriesPoint;
using drasim::ui::RunSeriesModel;

namespace {

MetricSample sample(int minutes, std::vector<SeriesPoint> points)
{
    MetricSample s;
    s.time = minutes * kMinute;
    s.points = std::move(points);
    return s;
}

} // namespace

TEST(RunSeriesModel, GrowsColumnsAndRowsConsistently)
{
    RunSeriesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy added(&model, &RunSeriesModel::seriesAdded);

    model.append({ sample(0, { { "pods", "pending", 3 } }), sample(30, { { "pods", "pending", 1 } }) });
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), 2);
    EXPECT_DOUBLE_EQ(model.index(1, 0).data().toDouble(), 0.5); // hours
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString().toStdString(), "pods/pending");

    // A series first seen in the third sample: earlier rows read as missing, not zero.
    model.append({ sample(60, { { "pods", "pending", 0 }, { "utilization.pool", "burst", 0.25 } }) });
    ASSERT_EQ(model.columnCount(), 3);
    EXPECT_EQ(added.count(), 2);
    const int burst = model.columnOf(QStringLiteral("utilization.pool/burst"));
    ASSERT_EQ(burst, 2);
    EXPECT_FALSE(model.index(0, burst).data().isValid());
    EXPECT_DOUBLE_EQ(model.index(2, burst).data().toDouble(), 0.25);
    EXPECT_EQ(model.columnOf(QStringLiteral("absent")), -1);

    model.append({});
    EXPECT_EQ(model.rowCount(), 3);
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.columnCount(), 1);
    EXPECT_TRUE(model.seriesNames().isEmpty());
}
