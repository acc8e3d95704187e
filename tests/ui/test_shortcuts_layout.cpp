// SPDX-License-Identifier: Apache-2.0
// The window's main actions sit in its menus with their keys, and the keys work: switch tabs,
// move the timeline between events, run and cancel, undo and redo an edit. The layout (docks, the
// pages' splitters) comes back in the next window.
#include <QAbstractButton>
#include <QDockWidget>
#include <QMenuBar>
#include <QSettings>
#include <QShortcut>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

#include "ui/document/document.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/time_cursor.h"
#include "ui/pages/simulation_page.h"
#include "ui/pages/timeline_page.h"

using namespace drasim;
using drasim::ui::MainWindow;

namespace {

QList<QAction*> menuActions(MainWindow& w)
{
    QList<QAction*> all;
    for (QAction* top : w.menuBar()->actions())
        if (top->menu())
            for (QAction* a : top->menu()->actions())
                all << a;
    return all;
}

QList<QSplitter*> splitters(MainWindow& w)
{
    QList<QSplitter*> out;
    for (QSplitter* s : w.findChildren<QSplitter*>())
        if (s->window() == &w)
            out << s;
    return out;
}

/// The first splitter the user sees: one on the tab shown first (the Cluster tab), not one of a
/// page that is still hidden, whose panes have no size yet.
QSplitter* firstVisibleSplitter(MainWindow& w)
{
    for (QSplitter* s : splitters(w))
        if (s->isVisible())
            return s;
    return nullptr;
}

bool activate(MainWindow& w)
{
    w.show();
    w.activateWindow();
    return QTest::qWaitForWindowActive(&w);
}

} // namespace

TEST(MainWindowShortcuts, EveryMainActionIsInAMenuWithItsOwnKey)
{
    MainWindow w;
    const QList<QAction*> inMenus = menuActions(w);
    for (const char* name :
        { "actionOpen", "actionSave", "actionReload", "actionUndo", "actionRedo", "actionRun", "actionCancel",
            "actionNextEvent", "actionPreviousEvent", "actionNextTab", "actionPreviousTab" }) {
        auto* action = w.findChild<QAction*>(QString::fromLatin1(name));
        ASSERT_TRUE(action) << name;
        EXPECT_FALSE(action->shortcut().isEmpty()) << name;
        EXPECT_TRUE(inMenus.contains(action)) << name;
    }
    // Every tab has its entry; the first nine have Ctrl+1 to Ctrl+9.
    for (int i = 0; i < w.pages()->count(); ++i) {
        const auto found = std::find_if(
            inMenus.begin(), inMenus.end(), [&](QAction* a) { return a->text() == w.pages()->tabText(i); });
        ASSERT_NE(found, inMenus.end()) << w.pages()->tabText(i).toStdString();
        if (i < 9) {
            EXPECT_EQ((*found)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        }
    }
    // A key bound twice fires neither binding: every shortcut of the window (menus, the pages'
    // buttons and their own shortcuts) is unique.
    QList<QKeySequence> keys;
    for (QAction* a : w.findChildren<QAction*>())
        keys << a->shortcuts();
    for (QAbstractButton* b : w.findChildren<QAbstractButton*>())
        if (!b->shortcut().isEmpty())
            keys << b->shortcut();
    for (QShortcut* s : w.findChildren<QShortcut*>())
        keys << s->keys();
    EXPECT_TRUE(keys.contains(QKeySequence(Qt::Key_Space))); // the timeline's play button is seen
    for (qsizetype i = 0; i < keys.size(); ++i)
        EXPECT_EQ(keys.count(keys[i]), 1) << keys[i].toString().toStdString();
}

TEST(MainWindowShortcuts, KeysSwitchTabsAndMoveTheTimelineBetweenEvents)
{
    MainWindow w;
    ASSERT_TRUE(activate(w));
    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_4));
    EXPECT_EQ(w.pages()->currentIndex(), 3);
    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    EXPECT_EQ(w.pages()->currentIndex(), 4);
    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    EXPECT_EQ(w.pages()->currentIndex(), 2);
    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_1));
    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_PageUp)); // wraps to the last tab
    EXPECT_EQ(w.pages()->currentIndex(), w.pages()->count() - 1);

    // A replay with events at 1 h, 2 h and 5 h: Alt+PgDown and Alt+PgUp go from event to event.
    auto replay = std::make_shared<ui::PodReplay>();
    for (int hour : { 1, 2, 5 }) {
        ui::ReplayEvent e;
        e.time = hour * sim::kHour;
        e.pod = "default/p" + std::to_string(hour);
        replay->append(e);
    }
    replay->setEndTime(6 * sim::kHour);
    ui::TimeCursor* cursor = w.timelinePage()->cursor();
    cursor->setReplay(replay);
    cursor->setTime(0);
    QTest::keySequence(&w, QKeySequence(Qt::ALT | Qt::Key_PageDown));
    EXPECT_EQ(cursor->time(), 1 * sim::kHour);
    QTest::keySequence(&w, QKeySequence(Qt::ALT | Qt::Key_PageDown));
    EXPECT_EQ(cursor->time(), 2 * sim::kHour);
    QTest::keySequence(&w, QKeySequence(Qt::ALT | Qt::Key_PageUp));
    EXPECT_EQ(cursor->time(), 1 * sim::kHour);
}

TEST(MainWindowShortcuts, KeysCancelAndRunTheScenarioAgain)
{
    MainWindow w;
    w.setRunStorePath(QString());
    ASSERT_TRUE(activate(w));
    ui::SimulationJob* job = w.simulationPage()->job();
    QSignalSpy started(job, &ui::SimulationJob::started);
    QSignalSpy finished(job, &ui::SimulationJob::finished);
    w.openPaths(
        { QString::fromUtf8(DRASIM_SOURCE_DIR) + QStringLiteral("/scenarios/sim/default/scenario.yaml") });
    ASSERT_TRUE(started.wait(60000)); // a scenario runs as soon as it opened

    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_Period));
    ASSERT_TRUE(finished.wait(60000));
    auto outcome = finished.at(0).at(0).value<std::shared_ptr<const ui::SimulationOutcome>>();
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->cancelled);

    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_R));
    ASSERT_TRUE(started.count() == 2 || started.wait(60000));
    EXPECT_TRUE(job->isRunning());
    QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_Period));
    ASSERT_TRUE(finished.wait(60000));
}

TEST(MainWindowLayout, DocksAndSplittersComeBackInTheNextWindow)
{
    QList<int> sizes;
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("problemsDock"));
        ASSERT_TRUE(dock);
        dock->hide();
        QSplitter* first = firstVisibleSplitter(w);
        ASSERT_TRUE(first);
        const int total = first->sizes()[0] + first->sizes()[1];
        first->setSizes({ total / 5, total - total / 5 });
        sizes = first->sizes();
        w.close();
    }
    ASSERT_EQ(sizes.size(), 2);
    MainWindow again;
    again.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&again));
    EXPECT_TRUE(again.findChild<QDockWidget*>(QStringLiteral("problemsDock"))->isHidden());
    ASSERT_TRUE(firstVisibleSplitter(again));
    EXPECT_EQ(firstVisibleSplitter(again)->sizes(), sizes);
    // The other tests start from the default layout.
    QSettings().remove(QStringLiteral("window"));
}

TEST(MainWindowUndo, ASeedEditGoesBackAndForthInTheSimulationTab)
{
    MainWindow w;
    auto* seed = w.simulationPage()->findChild<QSpinBox*>();
    ASSERT_TRUE(seed);
    auto* undo = w.findChild<QAction*>(QStringLiteral("actionUndo"));
    auto* redo = w.findChild<QAction*>(QStringLiteral("actionRedo"));
    ASSERT_TRUE(undo && redo);
    EXPECT_FALSE(undo->isEnabled());

    seed->setValue(7); // as typed into the box
    EXPECT_EQ(w.document()->seedOverride(), std::optional<quint64>(7));
    EXPECT_TRUE(undo->isEnabled());
    undo->trigger(); // Edit › Undo
    EXPECT_EQ(seed->value(), 0);
    EXPECT_EQ(seed->text().toStdString(), "scenario seed");
    EXPECT_FALSE(w.document()->seedOverride().has_value());
    EXPECT_TRUE(redo->isEnabled());
    redo->trigger();
    EXPECT_EQ(seed->text().toStdString(), "seed 7");
    EXPECT_EQ(w.document()->seedOverride(), std::optional<quint64>(7));
}
