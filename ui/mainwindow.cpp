// SPDX-License-Identifier: Apache-2.0
#include "ui/mainwindow.h"

#include <algorithm>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include "core/session/input_kind.h"
#include "core/storage/database.h"
#include "core/storage/store_location.h"
#include "drasim_version.h"
#include "ui/document/document.h"
#include "ui/document/recent_files.h"
#include "ui/jobs/allocation_job.h"
#include "ui/jobs/plan_job.h"
#include "ui/jobs/simulation_job.h"
#include "ui/models/core_text.h"
#include "ui/models/diagnostics_model.h"
#include "ui/models/time_text.h"
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
#include "ui/theme.h"
#include "ui/widgets/code_editor.h"
#include "ui/widgets/column_widths.h"
#include "ui/widgets/error_banner.h"
#include "ui/widgets/help_browser.h"

namespace drasim::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("drasim"));
    resize(1280, 800);
    setAcceptDrops(true);
    m_document = new Document(this);
    m_diagnosticsModel = new DiagnosticsModel(this);
    buildLayout();
    buildActions();
    restoreWindowState();

    connect(m_document, &Document::openStarted, this, [this](const QStringList& paths) {
        m_progress->setValue(0);
        setBusy(true, tr("Opening %1…").arg(paths.join(QStringLiteral(", "))));
    });
    connect(m_document, &Document::openProgress, this,
        [this](double f) { m_progress->setValue(int(f * 1000 + 0.5)); });
    connect(m_document, &Document::openCancelled, this, [this](double fractionRead) {
        setBusy(false);
        m_statusText->setText(tr("Opening cancelled (%1% read)").arg(int(fractionRead * 100)));
    });
    connect(m_document, &Document::opened, this, &MainWindow::onOpened);
    setBusy(false);
    m_statusText->setText(tr("Open Kubernetes manifests or a Scenario (File › Open) to begin."));
}

MainWindow::~MainWindow()
{
    stopBackgroundWork();
}

void MainWindow::stopBackgroundWork()
{
    // Every worker is told to stop before any page goes: each page's destructor waits for its own
    // workers, and a run told only when its page's turn comes would first finish building a
    // large cluster's model while the pages before it are torn down.
    if (m_document->isOpening())
        m_document->cancelOpen();
    m_simulation->job()->cancel();
    m_plan->job()->cancel();
    m_fragmentation->job()->cancel();
    m_topology->stopIndexing();
}

ObjectTreeModel* MainWindow::objectModel() const
{
    return m_cluster->objectModel();
}

void MainWindow::buildLayout()
{
    // Errors in the input are shown inline above the content; the window keeps working.
    m_banner = new ErrorBanner(this);
    m_banner->setVisible(false);

    m_cluster = new ClusterPage(m_document, this);
    m_simulation = new SimulationPage(m_document, this);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_cluster, tr("Cluster"));
    m_pods = new PodsPage(m_document, this);
    m_tabs->addTab(m_simulation, tr("Simulation"));
    m_tabs->addTab(m_pods, tr("Pods and claims"));
    m_timeline = new TimelinePage(m_simulation->job(), this);
    m_pods->setTimeCursor(m_timeline->cursor());
    m_topology = new TopologyPage(m_document, m_timeline->cursor(), this);
    m_tabs->addTab(m_topology, tr("Topology"));
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_editor = new EditorPage(m_document, this);
    m_tabs->addTab(m_editor, tr("Editor"));
    m_inspector = new InspectorPage(m_document, this);
    m_inspector->setTopologyPage(m_topology);
    // The Topology page shows the scheduled cluster until a run is replayed, and follows a claim
    // picked in Pods and claims.
    connect(m_pods->job(), &AllocationJob::scheduled, m_topology,
        [this](std::shared_ptr<const AllocationOutcome> outcome) {
            m_topology->setAllocation(outcome->pods, outcome->claims);
        });
    connect(m_pods, &PodsPage::claimSelected, m_topology, &TopologyPage::openClaim);
    // and outlines the placement of the PodGroup picked there.
    connect(m_pods, &PodsPage::groupSelected, m_topology, &TopologyPage::markGroup);
    connect(m_pods, &PodsPage::groupCleared, m_topology, [this]() { m_topology->markGroup({}, {}, {}); });
    m_tabs->addTab(m_inspector, tr("Allocation inspector"));
    m_plan = new PlanPage(this);
    m_tabs->addTab(m_plan, tr("Plan"));
    m_compare = new ComparePage(this);
    m_tabs->addTab(m_compare, tr("Compare"));
    // Last: the tabs before it keep their Ctrl+number.
    m_fragmentation = new FragmentationPage(m_document, this);
    m_tabs->addTab(m_fragmentation, tr("Fragmentation"));
    // The run list follows the history: every finished run while the tab is shown, and whenever
    // it is shown. Not behind the tab's back: listing opens the store, whose check reads the whole
    // file (about a second for a store of a few hundred runs), for a list nobody looks at.
    connect(m_simulation->job(), &SimulationJob::finished, this, [this]() {
        if (m_tabs->currentWidget() == m_compare)
            m_compare->refreshRuns();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int) {
        if (m_tabs->currentWidget() == m_compare)
            m_compare->refreshRuns();
    });

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    // The store `drasim` uses when no --db is given: runs made here are listed by `drasim runs`, and
    // the other way round. Without a usable home folder, runs are not recorded.
    try {
        setRunStorePath(QString::fromStdString(storage::resolveStorePath({})));
    } catch (const storage::StorageError&) {
        // Neither XDG_DATA_HOME nor HOME is usable: the window works, its runs are not kept.
    }
    connect(m_simulation, &SimulationPage::statusMessage, this,
        [this](const QString& t) { m_statusText->setText(t); });
    connect(m_simulation, &SimulationPage::diagnosticsChanged, this,
        [this](const std::vector<Diagnostic>& diags) { showDiagnostics(diags); });
    connect(m_plan, &PlanPage::statusMessage, this, [this](const QString& t) { m_statusText->setText(t); });
    // A time asked for past the run's end is never clamped silently: the window says so too.
    connect(m_timeline, &TimelinePage::initialTimeClamped, this, [this](qint64 requested, qint64 end) {
        m_statusText->setText(tr("Showing the end of the run (%1): %2 is after it")
                                  .arg(formatSimTime(end), formatSimTime(requested)));
    });
    connect(m_fragmentation, &FragmentationPage::statusMessage, this,
        [this](const QString& t) { m_statusText->setText(t); });
    connect(m_fragmentation, &FragmentationPage::diagnosticsChanged, this,
        [this](const std::vector<Diagnostic>& diags) { showDiagnostics(diags); });
    connect(m_plan, &PlanPage::diagnosticsChanged, this,
        [this](const std::vector<Diagnostic>& diags) { showDiagnostics(diags); });

    m_diagnosticsView = new QTableView(this);
    m_diagnosticsView->setModel(m_diagnosticsModel);
    m_diagnosticsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_diagnosticsView->horizontalHeader()->setStretchLastSection(true);
    m_diagnosticsView->verticalHeader()->setVisible(false);
    // Double click (or Enter on) a problem: its file in the Editor tab, at its line and column.
    connect(m_diagnosticsView, &QAbstractItemView::activated, this,
        [this](const QModelIndex& index) { showProblem(index.row()); });
    auto* dock = new QDockWidget(tr("Problems"), this);
    dock->setObjectName(QStringLiteral("problemsDock"));
    dock->setWidget(m_diagnosticsView);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    resizeDocks({ dock }, { 160 }, Qt::Vertical);

    m_statusText = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(160);
    m_cancel = new QPushButton(tr("Cancel"), this);
    connect(m_cancel, &QPushButton::clicked, this, [this]() {
        m_document->cancelOpen();
        m_statusText->setText(tr("Cancelling…"));
    });
    statusBar()->addWidget(m_statusText, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
}

void MainWindow::buildActions()
{
    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    auto* openFiles = fileMenu->addAction(tr("&Open…"), this, &MainWindow::openFilesDialog);
    openFiles->setShortcut(QKeySequence::Open);
    openFiles->setObjectName(QStringLiteral("actionOpen"));
    fileMenu->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog);
    m_recentMenu = fileMenu->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();
    auto* reload = fileMenu->addAction(tr("Re&load"), m_document, &Document::reload);
    reload->setShortcut(QKeySequence::Refresh);
    reload->setObjectName(QStringLiteral("actionReload"));
    // The Editor tab's file; when it cannot be saved the tab says why, so it is brought forward.
    auto* save = fileMenu->addAction(tr("&Save"), this, [this]() {
        if (!m_editor->save())
            m_tabs->setCurrentWidget(m_editor);
    });
    save->setShortcut(QKeySequence::Save);
    save->setObjectName(QStringLiteral("actionSave"));
    fileMenu->addSeparator();
    auto* quit = fileMenu->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    auto* editMenu = menuBar()->addMenu(tr("&Edit"));
    auto* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName(QStringLiteral("actionUndo"));
    auto* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setObjectName(QStringLiteral("actionRedo"));
    editMenu->addAction(undo);
    editMenu->addAction(redo);

    // View › Theme: the system's colours or a light or dark palette, remembered across sessions.
    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    auto* themeMenu = viewMenu->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(this);
    const Theme current = savedTheme();
    for (const auto& [theme, label] : { std::pair { Theme::System, tr("Follow the &System") },
             std::pair { Theme::Light, tr("&Light") }, std::pair { Theme::Dark, tr("&Dark") } }) {
        auto* action = themeMenu->addAction(label, this, [this, theme]() { setTheme(theme); });
        action->setCheckable(true);
        action->setChecked(theme == current);
        action->setData(themeName(theme));
        themes->addAction(action);
    }
    m_themeActions = themes;
    buildViewActions(viewMenu);
    buildRunActions();

    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
    auto* guide = helpMenu->addAction(tr("&User Guide"), this, [this]() { showUserGuide(); });
    guide->setShortcut(QKeySequence::HelpContents);
    helpMenu->addAction(
        tr("&Scenario Format"), this, [this]() { showUserGuide(QStringLiteral("scenario-format.md")); });
    helpMenu->addAction(
        tr("S&tudy Format"), this, [this]() { showUserGuide(QStringLiteral("study-format.md")); });
    helpMenu->addSeparator();
    helpMenu->addAction(tr("&About drasim"), this, [this]() {
        QMessageBox::about(this, tr("About drasim"),
            tr("<b>drasim %1</b><p>A cluster simulator and capacity planner for Kubernetes "
               "Dynamic Resource Allocation.</p>")
                .arg(QStringLiteral(DRASIM_VERSION_STRING)));
    });

    auto* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->addAction(openFiles);
    toolbar->addAction(reload);
}

void MainWindow::buildViewActions(QMenu* viewMenu)
{
    // One entry per tab (Ctrl+1 to Ctrl+9), and the next or previous tab as in a browser.
    viewMenu->addSeparator();
    for (int i = 0; i < m_tabs->count(); ++i) {
        auto* action
            = viewMenu->addAction(m_tabs->tabText(i), this, [this, i]() { m_tabs->setCurrentIndex(i); });
        if (i < 9)
            action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    viewMenu->addSeparator();
    auto* next = viewMenu->addAction(tr("&Next Tab"), this,
        [this]() { m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count()); });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    next->setObjectName(QStringLiteral("actionNextTab"));
    auto* previous = viewMenu->addAction(tr("&Previous Tab"), this, [this]() {
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    });
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    previous->setObjectName(QStringLiteral("actionPreviousTab"));
}

void MainWindow::buildRunActions()
{
    auto* runMenu = menuBar()->addMenu(tr("&Run"));
    // The Plan tab runs its study; everywhere else the scenario is simulated again.
    auto* run = runMenu->addAction(tr("&Run"), this, [this]() {
        if (m_tabs->currentWidget() == m_plan)
            m_plan->run();
        else if (m_tabs->currentWidget() == m_fragmentation)
            m_fragmentation->run();
        else
            m_simulation->run();
    });
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    run->setObjectName(QStringLiteral("actionRun"));
    // Whatever is going on: opening, a simulation, a study. Not Escape, which charts use to
    // leave their zoom.
    auto* cancel = runMenu->addAction(tr("&Cancel"), this, [this]() {
        if (m_document->isOpening())
            m_document->cancelOpen();
        m_simulation->cancel();
        m_plan->cancel();
        m_fragmentation->cancel();
    });
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    cancel->setObjectName(QStringLiteral("actionCancel"));
    runMenu->addSeparator();
    // The timeline's cursor moves every replaying view, whichever tab is shown. (Alt+arrows step
    // the Allocation inspector.)
    auto* nextEvent = runMenu->addAction(tr("&Next Event"), m_timeline, &TimelinePage::nextEvent);
    nextEvent->setShortcut(QKeySequence(Qt::ALT | Qt::Key_PageDown));
    nextEvent->setObjectName(QStringLiteral("actionNextEvent"));
    auto* previousEvent = runMenu->addAction(tr("&Previous Event"), m_timeline, &TimelinePage::previousEvent);
    previousEvent->setShortcut(QKeySequence(Qt::ALT | Qt::Key_PageUp));
    previousEvent->setObjectName(QStringLiteral("actionPreviousEvent"));
}

void MainWindow::setTheme(Theme theme)
{
    applyTheme(theme);
    saveTheme(theme);
    for (QAction* action : m_themeActions->actions())
        action->setChecked(action->data().toString() == themeName(theme));
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const auto entries = RecentFiles::entries();
    for (const QStringList& paths : entries) {
        QStringList names;
        for (const auto& p : paths)
            names << QFileInfo(p).fileName();
        auto* action = m_recentMenu->addAction(
            names.join(QStringLiteral(", ")), this, [this, paths]() { openPaths(paths); });
        action->setToolTip(paths.join(QLatin1Char('\n')));
    }
    if (entries.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    else
        m_recentMenu->addAction(tr("Clear"), this, []() { RecentFiles::clear(); });
}

namespace {

// The splitters of the window's pages, in the order the pages build them (not those of other
// top-level windows such as the user guide).
QList<QSplitter*> pageSplitters(const QMainWindow* window)
{
    QList<QSplitter*> splitters;
    for (QSplitter* splitter : window->findChildren<QSplitter*>())
        if (splitter->window() == window)
            splitters << splitter;
    return splitters;
}

} // namespace

void MainWindow::restoreWindowState()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    // Saved by a version whose pages had other splitters: keep this version's defaults.
    const QVariantList states = settings.value(QStringLiteral("window/splitters")).toList();
    const QList<QSplitter*> splitters = pageSplitters(this);
    if (states.size() == splitters.size())
        for (qsizetype i = 0; i < splitters.size(); ++i)
            splitters[i]->restoreState(states[i].toByteArray());
}

void MainWindow::saveWindowState() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QVariantList states;
    for (const QSplitter* splitter : pageSplitters(this))
        states << splitter->saveState();
    settings.setValue(QStringLiteral("window/splitters"), states);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveWindowState();
    QMainWindow::closeEvent(event);
}

namespace {

// The local files and folders a drag carries; anything else (web links, text) is not ours to open.
QStringList droppedPaths(const QMimeData* mime)
{
    QStringList paths;
    if (!mime)
        return paths;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    return paths;
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList paths = droppedPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    openPaths(paths);
}

void MainWindow::showUserGuide(const QString& page)
{
    if (!m_help)
        m_help = new HelpBrowser(this);
    m_help->showPage(page);
    m_help->show();
    m_help->raise();
}

void MainWindow::openFilesDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open manifests, a scenario or a study"),
        QString(), tr("YAML or JSON (*.yaml *.yml *.json);;All files (*)"));
    if (!files.isEmpty())
        openPaths(files);
}

void MainWindow::openFolderDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder of manifests"));
    if (!dir.isEmpty())
        openPaths({ dir });
}

void MainWindow::setRunStorePath(const QString& path)
{
    m_runStorePath = path;
    m_simulation->setRunStorePath(path);
    m_plan->setStorePath(path);
    m_compare->setStorePath(path);
}

void MainWindow::openPaths(const QStringList& paths)
{
    // A study is not a cluster: it names its own scenario and runs in the Plan tab.
    if (paths.size() == 1 && session::hasTopLevelKind(paths.front().toStdString(), "Study")) {
        RecentFiles::add(paths);
        m_tabs->setCurrentWidget(m_plan);
        m_plan->openStudy(paths.front());
        return;
    }
    m_document->open(paths);
}

void MainWindow::showDiagnostics(const std::vector<Diagnostic>& extra)
{
    std::vector<Diagnostic> all = m_document->diagnostics();
    all.insert(all.end(), extra.begin(), extra.end());
    m_diagnosticsModel->setDiagnostics(std::move(all));
    fitColumnsToSample(m_diagnosticsView); // a bad dump can hold thousands of problems
    const int errors = m_diagnosticsModel->errorCount();
    if (errors > 0) {
        const Diagnostic* first = nullptr;
        for (int r = 0; r < m_diagnosticsModel->rowCount() && !first; ++r)
            if (m_diagnosticsModel->diagnosticAt(r)->severity == Severity::Error)
                first = m_diagnosticsModel->diagnosticAt(r);
        m_banner->setText(tr("<b>%1 in the input.</b> ").arg(countOf(errors, tr("error"), tr("errors")))
            + (first ? QString::fromStdString(first->format()).toHtmlEscaped() : QString()));
        m_banner->setVisible(true);
    } else {
        m_banner->setVisible(false);
    }
}

bool MainWindow::showProblem(int row)
{
    const Diagnostic* d = m_diagnosticsModel->diagnosticAt(row);
    if (!d || d->pos.line <= 0 || !m_editor->openFile(QString::fromStdString(d->pos.file)))
        return false; // not in one of the document's files (a scenario's run, a study)
    m_tabs->setCurrentWidget(m_editor);
    m_editor->editor()->goTo(d->pos.line, std::max(1, d->pos.column));
    m_editor->editor()->setFocus();
    return true;
}

void MainWindow::setBusy(bool busy, const QString& text)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (!text.isEmpty())
        m_statusText->setText(text);
}

void MainWindow::onOpened()
{
    setBusy(false);
    RecentFiles::add(m_document->paths());
    setWindowTitle(tr("%1 — drasim").arg(m_document->displayName()));
    showDiagnostics();
    m_statusText->setText(
        tr("%1, %2, %3")
            .arg(countOf(qint64(m_document->objects()->size()), tr("object"), tr("objects")),
                countOf(m_diagnosticsModel->errorCount(), tr("error"), tr("errors")),
                countOf(m_diagnosticsModel->warningCount(), tr("warning"), tr("warnings"))));
    if (m_document->isScenario()) {
        m_tabs->setCurrentWidget(m_simulation);
        m_simulation->run(); // does nothing when the scenario has errors
    } else {
        m_tabs->setCurrentWidget(m_cluster);
    }
}

} // namespace drasim::ui
