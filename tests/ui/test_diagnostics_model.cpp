// SPDX-License-Identifier: Apache-2.0
#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "ui/models/diagnostics_model.h"

using drasim::Diagnostic;
using drasim::Severity;
using drasim::ui::DiagnosticsModel;

TEST(DiagnosticsModel, ShowsLocationObjectFieldAndMessage)
{
    DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    std::vector<Diagnostic> items(2);
    items[0].pos = { "c.yaml", 12, 7 };
    items[0].objectKind = "ResourceSlice";
    items[0].objectName = "node-a";
    items[0].fieldPath = "spec.devices[0].name";
    items[0].message = "Invalid value: \"GPU_0\": a lowercase RFC 1123 label must consist of ...";
    items[1].severity = Severity::Warning;
    items[1].pos = { "c.yaml", 40, 1 };
    items[1].message = "unknown kind Service skipped";
    model.setDiagnostics(items);

    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.errorCount(), 1);
    EXPECT_EQ(model.warningCount(), 1);
    EXPECT_EQ(
        model.index(0, DiagnosticsModel::LocationColumn).data().toString().toStdString(), "c.yaml:12:7");
    EXPECT_EQ(model.index(0, DiagnosticsModel::ObjectColumn).data().toString().toStdString(),
        "ResourceSlice node-a");
    EXPECT_EQ(model.index(0, DiagnosticsModel::FieldColumn).data().toString().toStdString(),
        "spec.devices[0].name");
    EXPECT_EQ(model.index(1, DiagnosticsModel::SeverityColumn).data().toString().toStdString(), "warning");
    EXPECT_EQ(model.index(0, 0).data(Qt::ToolTipRole).toString().toStdString(),
        "c.yaml:12:7: ResourceSlice node-a: spec.devices[0].name: Invalid value: \"GPU_0\": a lowercase "
        "RFC 1123 label must consist of ...");
}
