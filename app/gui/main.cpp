// SPDX-License-Identifier: Apache-2.0
// drasim-gui: sets up the application and opens the paths given on the command line.
#include <cstdio>
#include <optional>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>

#include "core/api/feature_gates.h"
#include "core/sim/sim_time.h"
#include "drasim_version.h"
#include "ui/document/document.h"
#include "ui/mainwindow.h"
#include "ui/pages/pods_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/perf/open_benchmark.h"
#include "ui/screenshot_driver.h"
#include "ui/theme.h"

namespace {

/// After the event loop: the window winds down as usual when main() returns (its workers stop
/// and close their run stores, its settings are written), but the document's objects are left
/// to the end of the process rather than freed one by one.
int quit(int code, drasim::ui::MainWindow& window)
{
    window.document()->keepSessionUntilExit();
    return code;
}

/// --kubernetes-version and --feature-gates, checked as `drasim allocate` checks them, for the
/// manifests the window opens. False, after saying why, when they are refused.
bool setManifestGates(const QCommandLineParser& parser, const QCommandLineOption& version,
    const QCommandLineOption& gates, drasim::ui::Document* document)
{
    const auto kubernetesVersion = parser.isSet(version)
        ? drasim::api::parseKubernetesVersion(parser.value(version).toStdString())
        : std::optional(drasim::api::kDefaultKubernetesVersion);
    if (!kubernetesVersion) {
        std::fprintf(stderr, "drasim-gui: --kubernetes-version: '%s' is not one of %s\n",
            qPrintable(parser.value(version)), drasim::api::supportedKubernetesVersions().c_str());
        return false;
    }
    if (const QString error = document->setManifestGates(*kubernetesVersion, parser.value(gates));
        !error.isEmpty()) {
        std::fprintf(stderr, "drasim-gui: --feature-gates: %s\n", qPrintable(error));
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("drasim"));
    QApplication::setApplicationVersion(QStringLiteral(DRASIM_VERSION_STRING));
    QApplication::setOrganizationName(QStringLiteral("drasim"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Kubernetes DRA cluster simulator and capacity planner"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("paths"), QStringLiteral("Manifest files or folders to open."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Save a picture of the window to FILE once the view is ready, then quit."),
        QStringLiteral("FILE"));
    QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("With --screenshot: the view to show (%1).")
            .arg(drasim::ui::ScreenshotDriver::viewNames().join(QStringLiteral(", "))),
        QStringLiteral("NAME"));
    QCommandLineOption time(QStringLiteral("time"),
        QStringLiteral("The simulated time the replaying views show once the run finished (e.g. 14h, 1d2h; "
                       "default: the end of the run)."),
        QStringLiteral("T"));
    QCommandLineOption select(QStringLiteral("select"),
        QStringLiteral("A scenario's pod or PodGroup (namespace/name) for the Pods tab to select at the time "
                       "shown; the Topology tab outlines a group's placement."),
        QStringLiteral("KEY"));
    QCommandLineOption benchOpen(QStringLiteral("bench-open"),
        QStringLiteral("Open the scenario, show the dashboard, print how long that took and the longest the "
                       "window was blocked, then quit."));
    QCommandLineOption theme(QStringLiteral("theme"),
        QStringLiteral("Colours for this session: system, light or dark (default: View › Theme)."),
        QStringLiteral("NAME"));
    QCommandLineOption version(QStringLiteral("kubernetes-version"),
        QStringLiteral("The Kubernetes version manifests are read and scheduled at: %1 (default 1.37; a "
                       "scenario brings its own).")
            .arg(QString::fromStdString(drasim::api::supportedKubernetesVersions())),
        QStringLiteral("V"));
    QCommandLineOption gates(QStringLiteral("feature-gates"),
        QStringLiteral("Feature gates for manifests, as kube-scheduler spells them: Name=true,Other=false."),
        QStringLiteral("LIST"));
    parser.addOption(version);
    parser.addOption(gates);
    parser.addOption(theme);
    parser.addOption(benchOpen);
    parser.addOption(screenshot);
    parser.addOption(view);
    parser.addOption(time);
    parser.addOption(select);
    parser.process(app);
    drasim::sim::SimTime at = 0;
    if (parser.isSet(time) && !drasim::sim::parseDuration(parser.value(time).toStdString(), at)) {
        std::fprintf(stderr, "drasim-gui: --time: '%s' is not a duration such as 90m, 14h or 1d2h\n",
            qPrintable(parser.value(time)));
        return 2;
    }
    if (parser.isSet(view) && !drasim::ui::ScreenshotDriver::viewNames().contains(parser.value(view))) {
        std::fprintf(stderr, "drasim-gui: unknown view '%s' (known: %s)\n", qPrintable(parser.value(view)),
            qPrintable(drasim::ui::ScreenshotDriver::viewNames().join(QStringLiteral(", "))));
        return 2;
    }
    if (parser.isSet(view) && !parser.isSet(screenshot)) {
        std::fprintf(stderr, "drasim-gui: --view needs --screenshot FILE\n");
        return 2;
    }

    // A picture or a measurement of nothing would wait for ever; a path that is not there is a typo.
    if (parser.isSet(screenshot) && parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "drasim-gui: --screenshot needs a file or folder to open\n");
        return 2;
    }
    if (parser.isSet(screenshot) || parser.isSet(benchOpen))
        for (const QString& path : parser.positionalArguments())
            if (!QFileInfo::exists(path)) {
                std::fprintf(stderr, "drasim-gui: %s: no such file or folder\n", qPrintable(path));
                return 2;
            }
    if (parser.isSet(screenshot)) {
        const QString mismatch
            = drasim::ui::ScreenshotDriver::inputMismatch(parser.value(view), parser.positionalArguments());
        if (!mismatch.isEmpty()) {
            std::fprintf(stderr, "drasim-gui: %s\n", qPrintable(mismatch));
            return 2;
        }
    }
    if (parser.isSet(benchOpen) && (parser.positionalArguments().isEmpty() || parser.isSet(screenshot))) {
        std::fprintf(stderr, "drasim-gui: --bench-open needs a scenario (and no --screenshot)\n");
        return 2;
    }

    const QStringList themes { QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark") };
    if (parser.isSet(theme) && !themes.contains(parser.value(theme))) {
        std::fprintf(stderr, "drasim-gui: --theme: '%s' is not system, light or dark\n",
            qPrintable(parser.value(theme)));
        return 2;
    }
    drasim::ui::applyTheme(
        parser.isSet(theme) ? drasim::ui::themeFromName(parser.value(theme)) : drasim::ui::savedTheme());

    drasim::ui::MainWindow window;
    if (!setManifestGates(parser, version, gates, window.document()))
        return 2;
    window.show();
    if (parser.isSet(benchOpen)) {
        // Measured the way a user meets it: from the request to the painted dashboard.
        auto* bench = new drasim::ui::OpenBenchmark(&window, &window);
        QObject::connect(bench, &drasim::ui::OpenBenchmark::done, &app, [bench]() {
            std::printf("%s\n%s\n", qPrintable(bench->report()), qPrintable(bench->phasesReport()));
            QApplication::exit(0);
        });
        bench->start(parser.positionalArguments());
        return quit(app.exec(), window);
    }
    if (parser.isSet(select))
        window.podsPage()->setPreferredSelection(parser.value(select));
    if (parser.isSet(time)) {
        window.timelinePage()->setInitialTime(at);
        // Never silently: a time past the run's end shows the end, and says so.
        QObject::connect(window.timelinePage(), &drasim::ui::TimelinePage::initialTimeClamped, &app,
            [](qint64 requested, qint64 end) {
                std::fprintf(stderr,
                    "drasim-gui: --time %s is after the end of the run (%s): showing its end\n",
                    drasim::sim::formatDuration(requested).c_str(), drasim::sim::formatDuration(end).c_str());
            });
    }
    if (parser.isSet(screenshot)) {
        // Documentation and smoke tests: wait until the view is ready, save, quit.
        auto* driver = new drasim::ui::ScreenshotDriver(
            &window, parser.value(view), parser.value(screenshot), &window);
        QObject::connect(
            driver, &drasim::ui::ScreenshotDriver::done, &app, [](bool ok, const QString& message) {
                if (!ok)
                    std::fprintf(stderr, "drasim-gui: %s\n", qPrintable(message));
                QApplication::exit(ok ? 0 : 1);
            });
    }
    if (!parser.positionalArguments().isEmpty())
        window.openPaths(parser.positionalArguments());
    return quit(app.exec(), window);
}
