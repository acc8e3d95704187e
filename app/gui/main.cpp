// SPDX-License-Identifier: Apache-2.0
// drasim-gui: sets up the application and opens the paths given on the command line.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "drasim_version.h"
#include "ui/document/document.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/pages/simulation_page.h"

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
    parser.addPositionalArgument(QStringLiteral("paths"), QStringLiteral("Manifest files or folders to open."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save a screenshot to FILE once loading finished, then quit."),
                                  QStringLiteral("FILE"));
    parser.addOption(screenshot);
    parser.process(app);

    drasim::ui::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openPaths(parser.positionalArguments());
    if (parser.isSet(screenshot)) {
        // Used for documentation and smoke tests: wait for the first result, let it paint, save, quit.
        const QString file = parser.value(screenshot);
        auto save = [&window, file]() {
            QTimer::singleShot(300, &window, [&window, file]() {
                window.grab().save(file);
                QApplication::quit();
            });
        };
        // Manifests (or a scenario with errors) are ready once opened; a good scenario once simulated.
        auto* document = window.document();
        QObject::connect(document, &drasim::ui::Document::opened, &window, [document, save]() {
            if (!document->prepared())
                save();
        });
        QObject::connect(window.simulationPage()->job(), &drasim::ui::SimulationJob::finished, &window, save);
    }
    return app.exec();
}
