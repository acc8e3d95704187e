// SPDX-License-Identifier: Apache-2.0
#include "ui/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include "drasim_version.h"
#include "ui/jobs/load_job.h"
#include "ui/models/diagnostics_model.h"
#include "ui/models/object_tree_model.h"
#include "ui/pages/simulation_page.h"
#include "ui/widgets/object_detail_view.h"

namespace drasim::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("drasim"));
    resize(1280, 800);
    m_loadJob = new LoadJob(this);
    m_objectModel = new ObjectTreeModel(this);
    m_diagnosticsModel = new DiagnosticsModel(this);
    buildLayout();
    buildActions();

    connect(m_loadJob, &LoadJob::started, this, [this](const QStringList& paths) {
        m_progress->setValue(0);
        setBusy(true, tr("Loading %1…").arg(paths.join(QStringLiteral(", "))));
    });
    connect(m_loadJob, &LoadJob::progressChanged, this, [this](double f) { m_progress->setValue(int(f * 1000 + 0.5)); });
    connect(m_loadJob, &LoadJob::loaded, this, &MainWindow::onLoaded);
    connect(m_loadJob, &LoadJob::cancelled, this, [this](double fractionRead) {
        setBusy(false);
        m_statusText->setText(tr("Loading cancelled (%1% read)").arg(int(fractionRead * 100)));
    });
    setBusy(false);
    m_statusText->setText(tr("Open Kubernetes manifests (File › Open) to begin."));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildLayout()
{
    m_tree = new QTreeView(this);
    m_tree->setModel(m_objectModel);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);

    m_detail = new ObjectDetailView(this);
    m_detail->showPlaceholder(tr("Select an object to see it as YAML."));

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_tree);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    // Errors in the input are shown inline above the content; the window keeps working.
    m_banner = new QLabel(this);
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: #fde8e8; color: #8b1a1a; padding: 6px;"
                                           " border: 1px solid #e5a0a0; }"));

    m_simulation = new SimulationPage(this);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(splitter, tr("Cluster"));
    m_tabs->addTab(m_simulation, tr("Simulation"));

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (!dataDir.isEmpty() && QDir().mkpath(dataDir))
        m_simulation->setRunStorePath(dataDir + QStringLiteral("/runs.db"));
    connect(m_simulation, &SimulationPage::statusMessage, this, [this](const QString& t) { m_statusText->setText(t); });
    connect(m_simulation, &SimulationPage::diagnosticsChanged, this, [this](const std::vector<Diagnostic>& diags) {
        m_diagnosticsModel->setDiagnostics(diags);
        m_diagnosticsView->resizeColumnsToContents();
        showErrorBanner();
    });

    m_diagnosticsView = new QTableView(this);
    m_diagnosticsView->setModel(m_diagnosticsModel);
    m_diagnosticsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_diagnosticsView->horizontalHeader()->setStretchLastSection(true);
    m_diagnosticsView->verticalHeader()->setVisible(false);
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
        m_loadJob->cancel();
        m_statusText->setText(tr("Cancelling…"));
    });
    statusBar()->addWidget(m_statusText, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);

    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::onSelectionChanged);
}

void MainWindow::buildActions()
{
    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    auto* openFiles = fileMenu->addAction(tr("&Open…"), this, &MainWindow::openFilesDialog);
    openFiles->setShortcut(QKeySequence::Open);
    fileMenu->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog);
    auto* reload = fileMenu->addAction(tr("&Reload"), this, [this]() {
        if (!m_paths.isEmpty())
            openPaths(m_paths);
    });
    reload->setShortcut(QKeySequence::Refresh);
    fileMenu->addSeparator();
    auto* quit = fileMenu->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
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

void MainWindow::openFilesDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open manifests or a scenario"), QString(),
                                                            tr("YAML or JSON (*.yaml *.yml *.json);;All files (*)"));
    if (!files.isEmpty())
        openPaths(files);
}

void MainWindow::openFolderDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder of manifests"));
    if (!dir.isEmpty())
        openPaths({ dir });
}

bool MainWindow::isScenarioFile(const QString& path)
{
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly))
        return false;
    // The kind is near the top of every scenario; reading a prefix keeps huge manifests cheap.
    const QString head = QString::fromUtf8(file.read(64 * 1024));
    static const QRegularExpression kind(QStringLiteral("^kind:\\s*Scenario\\s*$"),
                                         QRegularExpression::MultilineOption);
    return kind.match(head).hasMatch();
}

void MainWindow::setRunStorePath(const QString& path) { m_simulation->setRunStorePath(path); }

void MainWindow::openPaths(const QStringList& paths)
{
    m_paths = paths;
    if (paths.size() == 1 && isScenarioFile(paths.front())) {
        setWindowTitle(tr("%1 — drasim").arg(QFileInfo(paths.front()).fileName()));
        m_tabs->setCurrentWidget(m_simulation);
        m_simulation->setScenario(paths.front());
        m_simulation->run();
        return;
    }
    m_tabs->setCurrentIndex(0);
    m_loadJob->start(paths);
}

void MainWindow::showErrorBanner()
{
    const int errors = m_diagnosticsModel->errorCount();
    if (errors > 0) {
        const Diagnostic* first = nullptr;
        for (int r = 0; r < m_diagnosticsModel->rowCount() && !first; ++r)
            if (m_diagnosticsModel->diagnosticAt(r)->severity == Severity::Error)
                first = m_diagnosticsModel->diagnosticAt(r);
        m_banner->setText(tr("<b>%n error(s) in the input.</b> ", nullptr, errors)
                          + (first ? QString::fromStdString(first->format()).toHtmlEscaped() : QString()));
        m_banner->setVisible(true);
    } else {
        m_banner->setVisible(false);
    }
}

void MainWindow::setBusy(bool busy, const QString& text)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (!text.isEmpty())
        m_statusText->setText(text);
}

void MainWindow::onLoaded(std::shared_ptr<const yamlio::LoadResult> result, const QStringList& paths)
{
    setBusy(false);
    // Keep the objects alive as long as the model shows them, without copying the whole set.
    m_objects = std::shared_ptr<const api::ObjectSet>(result, &result->objects);
    m_objectModel->setObjects(m_objects);
    m_tree->expandAll();
    for (int c = 0; c < ObjectTreeModel::ColumnCount - 1; ++c)
        m_tree->resizeColumnToContents(c);
    // Show something useful right away: the first object of the first kind.
    const QModelIndex firstGroup = m_objectModel->index(0, 0);
    if (firstGroup.isValid() && m_objectModel->rowCount(firstGroup) > 0)
        m_tree->setCurrentIndex(m_objectModel->index(0, 0, firstGroup));
    m_diagnosticsModel->setDiagnostics(result->diagnostics.all());
    m_diagnosticsView->resizeColumnsToContents();

    QStringList names;
    for (const auto& p : paths)
        names << QFileInfo(p).fileName();
    setWindowTitle(tr("%1 — drasim").arg(names.join(QStringLiteral(", "))));

    const int errors = m_diagnosticsModel->errorCount();
    const int warnings = m_diagnosticsModel->warningCount();
    showErrorBanner();
    m_statusText->setText(tr("%1 object(s) loaded, %2 error(s), %3 warning(s)")
                              .arg(result->objects.size())
                              .arg(errors)
                              .arg(warnings));
}

void MainWindow::onSelectionChanged()
{
    const auto ref = m_objectModel->objectAt(m_tree->currentIndex());
    if (!m_objects || ref.kind.isEmpty()) {
        m_detail->showPlaceholder(tr("Select an object to see it as YAML."));
        return;
    }
    m_detail->showObject(*m_objects, ref.kind, ref.index);
}

} // namespace drasim::ui
