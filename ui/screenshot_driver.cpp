// SPDX-License-Identifier: Apache-2.0
#include "ui/screenshot_driver.h"

#include <QTabWidget>
#include <QTimer>

#include "core/session/input_kind.h"
#include "ui/document/document.h"
#include "ui/jobs/allocation_job.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/pods_model.h"
#include "ui/pages/cluster_page.h"
#include "ui/pages/compare_page.h"
#include "ui/pages/editor_page.h"
#include "ui/pages/fragmentation_page.h"
#include "ui/pages/inspector_page.h"
#include "ui/pages/plan_page.h"
#include "ui/pages/pods_page.h"
#include "ui/pages/simulation_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/pages/topology_page.h"
#include "ui/widgets/cel_selector_box.h"
#include "ui/widgets/code_editor.h"

namespace drasim::ui {

QStringList ScreenshotDriver::viewNames()
{
    return { QStringLiteral("cluster"), QStringLiteral("simulation"), QStringLiteral("dashboard"),
        QStringLiteral("pods"), QStringLiteral("topology"), QStringLiteral("timeline"),
        QStringLiteral("editor"), QStringLiteral("inspector"), QStringLiteral("plan"),
        QStringLiteral("compare"), QStringLiteral("fragmentation") };
}

QString ScreenshotDriver::inputMismatch(const QString& view, const QStringList& paths)
{
    const bool one = paths.size() == 1;
    const std::string first = one ? paths.front().toStdString() : std::string();
    const bool study = one && session::hasTopLevelKind(first, "Study");
    const bool scenario = one && session::detectInputKind(first) == session::InputKind::Scenario;
    if (view == QLatin1String("plan") && !study)
        return tr("--view plan needs one Study file");
    if (study && !view.isEmpty() && view != QLatin1String("plan"))
        return tr("a Study file opens in the Plan tab: use --view plan");
    const QStringList runViews { QStringLiteral("dashboard"), QStringLiteral("simulation"),
        QStringLiteral("timeline"), QStringLiteral("compare"), QStringLiteral("fragmentation") };
    if (runViews.contains(view) && !scenario)
        return tr("--view %1 needs one Scenario file (manifests are not simulated)").arg(view);
    return {};
}

ScreenshotDriver::ScreenshotDriver(
    MainWindow* window, const QString& view, const QString& file, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_view(view)
    , m_file(file)
{
    Document* doc = window->document();
    const bool simulation = view == QLatin1String("simulation") || view == QLatin1String("dashboard");
    // Each view is ready at its own moment; the window chooses its page on open, so the wanted
    // page is selected again right before the picture is taken.
    connect(doc, &Document::opened, this, [this, doc, simulation]() {
        // The study runs when asked: ask, and wait for its curves (a broken scenario shows why).
        if (m_view == QLatin1String("fragmentation")) {
            if (m_window->fragmentationPage()->canRun())
                m_window->fragmentationPage()->run();
            else
                ready();
            return;
        }
        // A scenario's pods are those of its run: wait for the replay (a broken one never runs).
        if (m_view == QLatin1String("pods") && doc->isScenario()) {
            if (!doc->prepared())
                ready();
            return;
        }
        if (m_view == QLatin1String("pods") || m_view == QLatin1String("editor")
            || (m_view == QLatin1String("inspector") && !m_window->inspectorPage()->pod().isEmpty()))
            return; // wait for the scheduling or the check below
        if (doc->prepared() && (m_view == QLatin1String("topology") || m_view == QLatin1String("timeline")))
            return; // wait for the run's replay
        if (m_view == QLatin1String("topology"))
            return; // manifests: wait for the scheduled cluster
        if (doc->prepared() && (simulation || m_view.isEmpty() || m_view == QLatin1String("compare")))
            return; // wait for the simulation (two of them to compare)
        ready();
    });
    connect(window->simulationPage()->job(), &SimulationJob::finished, this, [this, doc]() {
        if (m_view.isEmpty() || m_view == QLatin1String("simulation") || m_view == QLatin1String("dashboard"))
            ready();
        // Compare: the scenario again with the next seed, then the two runs side by side.
        if (m_view == QLatin1String("compare") && ++m_runsDone == 1 && doc->prepared()) {
            doc->setSeedOverride(doc->seedOverride().value_or(doc->prepared()->seed) + 1);
            m_window->simulationPage()->run();
        } else if (m_view == QLatin1String("compare") && m_runsDone == 2) {
            m_window->comparePage()->refreshRuns(); // both runs are in the store: list them
        }
    });
    connect(window->comparePage(), &ComparePage::runsListed, this, [this]() {
        if (m_view == QLatin1String("compare") && m_runsDone == 2)
            m_window->comparePage()->compareSelected();
    });
    connect(window->comparePage(), &ComparePage::comparisonShown, this, [this]() {
        if (m_view == QLatin1String("compare"))
            ready();
    });
    connect(window->timelinePage(), &TimelinePage::replayReady, this, [this, doc]() {
        if (m_view == QLatin1String("topology") || m_view == QLatin1String("timeline")
            || (m_view == QLatin1String("pods") && doc->isScenario()))
            ready();
    });
    connect(window->topologyPage(), &TopologyPage::scheduledShown, this, [this, doc]() {
        if (m_view == QLatin1String("topology") && !doc->prepared())
            ready();
    });
    connect(window->editorPage(), &EditorPage::checked, this, [this]() {
        if (m_view == QLatin1String("editor"))
            ready();
    });
    connect(window->inspectorPage(), &InspectorPage::traced, this, [this]() {
        if (m_view == QLatin1String("inspector"))
            ready();
    });
    connect(window->planPage(), &PlanPage::resultShown, this, [this]() {
        if (m_view == QLatin1String("plan"))
            ready();
    });
    connect(window->fragmentationPage(), &FragmentationPage::resultShown, this, [this]() {
        if (m_view == QLatin1String("fragmentation"))
            ready();
    });
    connect(window->podsPage()->job(), &AllocationJob::scheduled, this, [this]() {
        if (m_view == QLatin1String("pods") && m_window->podsPage()->podsModel()->pendingCount() == 0)
            ready(); // nothing to explain
    });
    connect(window->podsPage(), &PodsPage::diagnosisShown, this, [this]() {
        if (m_view == QLatin1String("pods"))
            ready();
    });
}

void ScreenshotDriver::ready()
{
    if (m_saving)
        return;
    m_saving = true;
    QTabWidget* pages = m_window->pages();
    if (m_view == QLatin1String("cluster"))
        pages->setCurrentWidget(m_window->clusterPage());
    else if (m_view == QLatin1String("pods"))
        pages->setCurrentWidget(m_window->podsPage());
    else if (m_view == QLatin1String("topology"))
        pages->setCurrentWidget(m_window->topologyPage());
    else if (m_view == QLatin1String("timeline"))
        pages->setCurrentWidget(m_window->timelinePage());
    else if (m_view == QLatin1String("inspector")) {
        pages->setCurrentWidget(m_window->inspectorPage());
        // The candidate right before the first pick: a device turned away, with its checks.
        m_window->inspectorPage()->nextDecision();
        m_window->inspectorPage()->previous();
    } else if (m_view == QLatin1String("editor")) {
        pages->setCurrentWidget(m_window->editorPage());
        // An example that fits the open cluster (a trace's devices have no NVIDIA attributes).
        m_window->editorPage()->selectorBox()->setExpression(
            m_window->editorPage()->selectorBox()->example());
    } else if (m_view == QLatin1String("plan"))
        pages->setCurrentWidget(m_window->planPage());
    else if (m_view == QLatin1String("compare"))
        pages->setCurrentWidget(m_window->comparePage());
    else if (m_view == QLatin1String("fragmentation"))
        pages->setCurrentWidget(m_window->fragmentationPage());
    else if (!m_view.isEmpty())
        pages->setCurrentWidget(m_window->simulationPage());
    // Let layouts and charts settle and paint before grabbing.
    QTimer::singleShot(300, this, [this]() {
        if (m_view == QLatin1String("editor"))
            m_window->editorPage()->editor()->centerCursor(); // the first problem, now laid out
        const bool ok = m_window->grab().save(m_file);
        Q_EMIT done(ok, ok ? QString() : tr("cannot write %1").arg(m_file));
    });
}

} // namespace drasim::ui
