// SPDX-License-Identifier: Apache-2.0
// Drives the real main window offscreen: load manifests in the background, check what the user sees.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextCursor>
#include <QTreeView>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/document/recent_files.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnostics_model.h"
#include "ui/models/object_tree_model.h"
#include "ui/pages/editor_page.h"
#include "ui/widgets/code_editor.h"

using drasim::ui::MainWindow;

namespace {

bool waitLoaded(MainWindow& w)
{
    QSignalSpy spy(w.document(), &drasim::ui::Document::opened);
    return spy.wait(20000);
}

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

    // The banner above the pages names the file, line and column.
    QString banner;
    for (auto* label : w.findChildren<QLabel*>())
        if (label->isVisible() && label->text().contains(QStringLiteral(" in the input.")))
            banner = label->text();
    EXPECT_TRUE(banner.contains(QString::fromStdString(d->format()).toHtmlEscaped())) << banner.toStdString();
    EXPECT_TRUE(banner.contains(bad + QStringLiteral(":4:9:"))) << banner.toStdString();

    // Activating the problem opens its file in the Editor tab at its line and column.
    ASSERT_TRUE(w.showProblem(0));
    EXPECT_EQ(w.pages()->currentWidget(), w.editorPage());
    EXPECT_EQ(w.editorPage()->currentFile(), bad);
    const QTextCursor at = w.editorPage()->editor()->textCursor();
    EXPECT_EQ(at.blockNumber() + 1, 4);
    EXPECT_EQ(at.positionInBlock() + 1, 9);
    EXPECT_FALSE(w.showProblem(99)); // no such row

    // Still usable: a good file loads afterwards and the banner goes away.
    w.openPaths({ sourcePath("scenarios/basic/cluster.yaml") });
    ASSERT_TRUE(waitLoaded(w));
    EXPECT_EQ(w.diagnosticsModel()->errorCount(), 0);
    EXPECT_EQ(w.objectModel()->rowCount(), 6);
}

// The window records into the store `drasim` reads without --db (qt_test_main points
// XDG_DATA_HOME at a scratch folder): a run made in one is listed by the other.
TEST(MainWindow, RecordsIntoTheCommandLinesDefaultStore)
{
    MainWindow w;
    EXPECT_EQ(w.runStorePath(), qEnvironmentVariable("XDG_DATA_HOME") + QStringLiteral("/drasim/drasim.db"));
    EXPECT_TRUE(QDir(qEnvironmentVariable("XDG_DATA_HOME") + QStringLiteral("/drasim")).exists());
}

TEST(MainWindow, CancelDropsTheRunningLoad)
{
    MainWindow w;
    QSignalSpy cancelled(w.document(), &drasim::ui::Document::openCancelled);
    QSignalSpy loaded(w.document(), &drasim::ui::Document::opened);
    w.openPaths({ sourcePath("scenarios/basic/cluster.yaml") });
    w.document()->cancelOpen();
    ASSERT_TRUE(cancelled.wait(20000));
    EXPECT_EQ(cancelled.count(), 1);
    EXPECT_FALSE(loaded.wait(500)); // the cancelled result never arrives
    EXPECT_EQ(w.objectModel()->rowCount(), 0);
}

TEST(MainWindow, RecentFilesAndWindowStatePersistInSettings)
{
    drasim::ui::RecentFiles::clear();
    const QString basic = sourcePath("scenarios/basic/cluster.yaml");
    {
        MainWindow w;
        w.show();
        w.openPaths({ basic });
        ASSERT_TRUE(waitLoaded(w));
        w.resize(1100, 900);
        w.close(); // saves geometry and layout
    }
    ASSERT_FALSE(drasim::ui::RecentFiles::entries().isEmpty());
    EXPECT_EQ(drasim::ui::RecentFiles::entries().front(), QStringList { basic });

    MainWindow again;
    EXPECT_EQ(again.size(), QSize(1100, 900));
}

TEST(RecentFiles, NewestFirstWithoutDuplicatesAndBounded)
{
    drasim::ui::RecentFiles::clear();
    for (int i = 0; i < drasim::ui::RecentFiles::kMaxEntries + 3; ++i)
        drasim::ui::RecentFiles::add({ QStringLiteral("/f%1.yaml").arg(i) });
    drasim::ui::RecentFiles::add({ QStringLiteral("/f5.yaml") });
    drasim::ui::RecentFiles::add({ QStringLiteral("/a.yaml"), QStringLiteral("/b") });
    const auto list = drasim::ui::RecentFiles::entries();
    ASSERT_EQ(list.size(), drasim::ui::RecentFiles::kMaxEntries);
    EXPECT_EQ(list[0], (QStringList { QStringLiteral("/a.yaml"), QStringLiteral("/b") }));
    EXPECT_EQ(list[1], QStringList { QStringLiteral("/f5.yaml") });
    EXPECT_EQ(list.count(QStringList { QStringLiteral("/f5.yaml") }), 1);
    EXPECT_FALSE(list.contains(QStringList { QStringLiteral("/f0.yaml") })); // the oldest fell off
    drasim::ui::RecentFiles::clear();
    EXPECT_TRUE(drasim::ui::RecentFiles::entries().isEmpty());
}
