// SPDX-License-Identifier: Apache-2.0
// Drives the real main window offscreen: load manifests in the background, check what the user sees.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>

#include <gtest/gtest.h>

#include "ui/jobs/load_job.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnostics_model.h"
#include "ui/models/object_tree_model.h"

using drasim::ui::MainWindow;

namespace {

bool waitLoaded(MainWindow& w)
{
    QSignalSpy spy(w.loadJob(), &drasim::ui::LoadJob::loaded);
    return spy.wait(20000);
}

QString sourcePath(const char* rel) { return QString::fromUtf8(DRASIM_SOURCE_DIR) + QLatin1Char('/') + QLatin1String(rel); }

} // namespace

TEST(MainWindow, LoadsTheDefaultBundleAndSavesAScreenshot)
{
    MainWindow w;
    w.show();
    w.openPaths({ sourcePath("scenarios/basic/cluster.yaml") });
    ASSERT_TRUE(waitLoaded(w));
    EXPECT_EQ(w.objectModel()->rowCount(), 6);
    EXPECT_EQ(w.diagnosticsModel()->errorCount(), 0);
    EXPECT_TRUE(w.windowTitle().startsWith(QStringLiteral("cluster.yaml")));

    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("mainwindow.png"));
    ASSERT_TRUE(w.grab().save(shot));
    EXPECT_GT(QFile(shot).size(), 1000);
}

TEST(MainWindow, BadInputIsShownInlineAndTheWindowKeepsWorking)
{
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.yaml"));
    {
        QFile f(bad);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: Bad_Name\nspec: {}\n");
    }
    MainWindow w;
    using Tester = QAbstractItemModelTester;
    Tester objectsTester(w.objectModel(), Tester::FailureReportingMode::Fatal);
    Tester problemsTester(w.diagnosticsModel(), Tester::FailureReportingMode::Fatal);
    w.show();
    w.openPaths({ bad });
    ASSERT_TRUE(waitLoaded(w));
    EXPECT_GE(w.diagnosticsModel()->errorCount(), 1);
    const auto* d = w.diagnosticsModel()->diagnosticAt(0);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->pos.line, 4);
    EXPECT_EQ(d->objectKind, "DeviceClass");

    bool bannerShown = false;
    for (auto* label : w.findChildren<QLabel*>())
        if (label->isVisible() && label->text().contains(QStringLiteral("error(s) in the input")))
            bannerShown = true;
    EXPECT_TRUE(bannerShown);

    // Still usable: a good file loads afterwards and the banner goes away.
    w.openPaths({ sourcePath("scenarios/basic/cluster.yaml") });
    ASSERT_TRUE(waitLoaded(w));
    EXPECT_EQ(w.diagnosticsModel()->errorCount(), 0);
    EXPECT_EQ(w.objectModel()->rowCount(), 6);
}

TEST(MainWindow, CancelDropsTheRunningLoad)
{
    MainWindow w;
    QSignalSpy cancelled(w.loadJob(), &drasim::ui::LoadJob::cancelled);
    QSignalSpy loaded(w.loadJob(), &drasim::ui::LoadJob::loaded);
    w.openPaths({ sourcePath("scenarios/basic/cluster.yaml") });
    w.loadJob()->cancel();
    ASSERT_TRUE(cancelled.wait(20000));
    EXPECT_EQ(cancelled.count(), 1);
    EXPECT_FALSE(loaded.wait(500)); // the cancelled result never arrives
    EXPECT_EQ(w.objectModel()->rowCount(), 0);
}
