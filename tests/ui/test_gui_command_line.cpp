// SPDX-License-Identifier: Apache-2.0
// drasim-gui as a user or a documentation script runs it: `--screenshot FILE --view NAME [--time T]
// INPUT` pictures every view offscreen, and bad arguments are refused with a message and a
// non-zero exit, writing nothing. Each program runs with its own settings and run history.
#include <QCryptographicHash>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"

namespace {

/// Starts drasim-gui offscreen with a scratch home of its own under `home`.
QProcess* startGui(const QStringList& args, const QString& home, QObject* parent)
{
    auto* p = new QProcess(parent);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    p->setProcessEnvironment(env);
    p->start(QStringLiteral(DRASIM_GUI_PATH), args);
    return p;
}

struct Finished
{
    int exitCode = -1;
    QString stderrText;
};

Finished finish(QProcess* p)
{
    Finished f;
    if (!p->waitForFinished(180000) || p->exitStatus() != QProcess::NormalExit)
        return f;
    f.exitCode = p->exitCode();
    f.stderrText = QString::fromUtf8(p->readAllStandardError());
    return f;
}

QByteArray pictureHash(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1)
                                       : QByteArray();
}

} // namespace

TEST(GuiCommandLine, EveryViewIsPicturedOffscreen)
{
    const QString scenario = sourcePath("scenarios/sim/default/scenario.yaml");
    const QString study = sourcePath("tests/unit/planner/data/small/study.yaml");
    const std::vector<std::pair<QString, QStringList>> shots {
        { QStringLiteral("dashboard"), { scenario } },
        { QStringLiteral("cluster"), { scenario } },
        { QStringLiteral("topology"), { scenario } },
        { QStringLiteral("timeline"), { scenario } },
        { QStringLiteral("pods"), { sourcePath("scenarios/learn/13-pending-pod") } },
        { QStringLiteral("editor"), { scenario } },
        { QStringLiteral("inspector"), { scenario } },
        { QStringLiteral("compare"), { scenario } },
        { QStringLiteral("plan"), { study } },
        { QStringLiteral("timeline-at-2h"), { QStringLiteral("--time"), QStringLiteral("2h"), scenario } },
    };
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // Started together: each waits on its own background work and timers, not on the others.
    QObject owner;
    std::vector<QProcess*> running;
    for (const auto& [name, inputs] : shots) {
        const QString view = name.section(QLatin1Char('-'), 0, 0);
        QStringList args { QStringLiteral("--screenshot"), dir.filePath(name + QStringLiteral(".png")),
            QStringLiteral("--view"), view };
        running.push_back(startGui(args + inputs, dir.filePath(name), &owner));
    }
    QMap<QByteArray, QString> seen;
    for (size_t i = 0; i < shots.size(); ++i) {
        const QString& name = shots[i].first;
        const Finished f = finish(running[i]);
        EXPECT_EQ(f.exitCode, 0) << name.toStdString() << ": " << f.stderrText.toStdString();
        const QString file = dir.filePath(name + QStringLiteral(".png"));
        const QImage image(file);
        ASSERT_FALSE(image.isNull()) << name.toStdString();
        EXPECT_GE(image.width(), 800) << name.toStdString();
        // Each view (and the timeline at another time) is a picture of its own.
        const QByteArray hash = pictureHash(file);
        EXPECT_FALSE(seen.contains(hash))
            << name.toStdString() << " looks like " << seen.value(hash).toStdString();
        seen.insert(hash, name);
    }
}

TEST(GuiCommandLine, BadArgumentsAreRefusedWithAMessageAndNoPicture)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    const QString scenario = sourcePath("scenarios/sim/default/scenario.yaml");
    const std::vector<std::pair<QStringList, QString>> cases {
        { { QStringLiteral("--screenshot"), shot, QStringLiteral("--view"), QStringLiteral("nodes"),
              scenario },
            QStringLiteral("drasim-gui: unknown view 'nodes' (known: cluster, simulation, dashboard, pods, "
                           "topology, timeline, editor, inspector, plan, compare, fragmentation)\n") },
        { { QStringLiteral("--view"), QStringLiteral("pods"), scenario },
            QStringLiteral("drasim-gui: --view needs --screenshot FILE\n") },
        { { QStringLiteral("--screenshot"), shot, QStringLiteral("--time"), QStringLiteral("soon"),
              scenario },
            QStringLiteral("drasim-gui: --time: 'soon' is not a duration such as 90m, 14h or 1d2h\n") },
        { { QStringLiteral("--screenshot"), shot },
            QStringLiteral("drasim-gui: --screenshot needs a file or folder to open\n") },
        { { QStringLiteral("--screenshot"), shot, dir.filePath(QStringLiteral("missing.yaml")) },
            QStringLiteral("drasim-gui: %1: no such file or folder\n")
                .arg(dir.filePath(QStringLiteral("missing.yaml"))) },
        { { QStringLiteral("--screenshot"), shot, QStringLiteral("--view"), QStringLiteral("plan"),
              scenario },
            QStringLiteral("drasim-gui: --view plan needs one Study file\n") },
        { { QStringLiteral("--screenshot"), shot, QStringLiteral("--view"), QStringLiteral("dashboard"),
              sourcePath("tests/unit/planner/data/small/study.yaml") },
            QStringLiteral("drasim-gui: a Study file opens in the Plan tab: use --view plan\n") },
        { { QStringLiteral("--screenshot"), shot, QStringLiteral("--view"), QStringLiteral("timeline"),
              sourcePath("scenarios/learn/13-pending-pod") },
            QStringLiteral(
                "drasim-gui: --view timeline needs one Scenario file (manifests are not simulated)\n") },
        { { QStringLiteral("--screenshot"), shot, QStringLiteral("--kubernetes-version"),
              QStringLiteral("1.34"), sourcePath("scenarios/learn/13-pending-pod") },
            QStringLiteral("drasim-gui: --kubernetes-version: '1.34' is not one of 1.35, 1.36, 1.37\n") },
        { { QStringLiteral("--screenshot"), shot, QStringLiteral("--feature-gates"),
              QStringLiteral("Nope=true"), sourcePath("scenarios/learn/13-pending-pod") },
            QStringLiteral("drasim-gui: --feature-gates: unrecognized feature gate: Nope\n") },
    };
    QObject owner;
    for (const auto& [args, message] : cases) {
        const Finished f = finish(startGui(args, dir.filePath(QStringLiteral("home")), &owner));
        EXPECT_EQ(f.exitCode, 2) << args.join(QLatin1Char(' ')).toStdString();
        // Only the message: Qt's own start-up notes (XDG_RUNTIME_DIR...) may come before it.
        EXPECT_TRUE(f.stderrText.endsWith(message)) << f.stderrText.toStdString();
        EXPECT_FALSE(QFile::exists(shot));
    }
}

TEST(GuiCommandLine, ATimeAfterTheRunsEndSaysItShowsTheEnd)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString shot = dir.filePath(QStringLiteral("late.png"));
    QObject owner;
    const Finished f
        = finish(startGui({ QStringLiteral("--screenshot"), shot, QStringLiteral("--view"),
                              QStringLiteral("timeline"), QStringLiteral("--time"), QStringLiteral("5d"),
                              sourcePath("scenarios/sim/default/scenario.yaml") },
            dir.filePath(QStringLiteral("home")), &owner));
    EXPECT_EQ(f.exitCode, 0);
    EXPECT_TRUE(f.stderrText.contains(
        QStringLiteral("drasim-gui: --time 5d is after the end of the run (1d): showing its end\n")))
        << f.stderrText.toStdString();
    EXPECT_TRUE(QFile::exists(shot));
}

// `--bench-open SCENARIO` measures opening until the dashboard is painted and prints two lines:
// the totals and where the time went. Only the form is checked here (timings are for benchmarks),
// and the parts that must agree: every page was updated before the dashboard was shown.
TEST(GuiCommandLine, BenchOpenPrintsTheOpeningTimeAndItsPhases)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QObject owner;
    QProcess* p
        = startGui({ QStringLiteral("--bench-open"), sourcePath("scenarios/sim/default/scenario.yaml") },
            dir.filePath(QStringLiteral("home")), &owner);
    const Finished f = finish(p);
    ASSERT_EQ(f.exitCode, 0) << f.stderrText.toStdString();
    const QStringList lines = QString::fromUtf8(p->readAllStandardOutput()).split(QLatin1Char('\n'));
    ASSERT_GE(lines.size(), 2) << lines.join(QLatin1Char('\n')).toStdString();
    const QRegularExpression totals(QStringLiteral("^opened and dashboard shown in (\\d+) ms \\(every page "
                                                   "updated at (\\d+) ms\\); worst UI stall \\d+ ms; "
                                                   "UI thread CPU \\d+ ms; (\\d+) nodes$"));
    const auto t = totals.match(lines[0]);
    ASSERT_TRUE(t.hasMatch()) << lines[0].toStdString();
    EXPECT_LE(t.captured(2).toInt(), t.captured(1).toInt());
    EXPECT_EQ(t.captured(3), QStringLiteral("10")); // the default scenario's 4 + 6 nodes
    const QRegularExpression phases(
        QStringLiteral("^phases \\(ms\\): waiting for a worker \\d+, reading \\d+, "
                       "preparing \\d+, handing over \\d+, pages \\d+, painting \\d+$"));
    EXPECT_TRUE(phases.match(lines[1]).hasMatch()) << lines[1].toStdString();
}

TEST(GuiCommandLine, BenchOpenWithoutAScenarioOrWithAPictureIsRefused)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    const QString scenario = sourcePath("scenarios/sim/default/scenario.yaml");
    const QString needs = QStringLiteral("drasim-gui: --bench-open needs a scenario (and no --screenshot)\n");
    const std::vector<std::pair<QStringList, QString>> cases {
        { { QStringLiteral("--bench-open") }, needs },
        { { QStringLiteral("--bench-open"), QStringLiteral("--screenshot"), shot, scenario }, needs },
        { { QStringLiteral("--bench-open"), dir.filePath(QStringLiteral("missing.yaml")) },
            QStringLiteral("drasim-gui: %1: no such file or folder\n")
                .arg(dir.filePath(QStringLiteral("missing.yaml"))) },
    };
    QObject owner;
    for (const auto& [args, message] : cases) {
        QProcess* p = startGui(args, dir.filePath(QStringLiteral("home")), &owner);
        const Finished f = finish(p);
        EXPECT_EQ(f.exitCode, 2) << args.join(QLatin1Char(' ')).toStdString();
        EXPECT_TRUE(f.stderrText.endsWith(message)) << f.stderrText.toStdString();
        EXPECT_TRUE(p->readAllStandardOutput().isEmpty()); // no half a measurement
        EXPECT_FALSE(QFile::exists(shot));
    }
}
