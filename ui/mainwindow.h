// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QMainWindow>
#include <QStringList>

#include "core/common/diagnostic.h"

class QActionGroup;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTableView;
class QTabWidget;

namespace drasim::ui {

class ClusterPage;
class ComparePage;
class DiagnosticsModel;
class Document;
class EditorPage;
class FragmentationPage;
class InspectorPage;
class HelpBrowser;
class ObjectTreeModel;
class PlanPage;
class PodsPage;
class SimulationPage;
class TimelinePage;
class TopologyPage;
enum class Theme;

/// The drasim-gui window: a shell around one Document. Its pages (Cluster, Simulation) observe the
/// document; the window holds the menus (every main action with its shortcut), the Problems dock,
/// the status bar, recent files and its own layout (both in QSettings).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens manifests (files or folders) or one Scenario file in the background; a scenario that
    /// opens without errors is then simulated in the background. One Study file opens in the Plan
    /// tab and runs there. The window stays responsive.
    void openPaths(const QStringList& paths);
    /// SQLite file where simulation runs and studies are recorded (default: the store `drasim`
    /// uses without --db, storage::resolveStorePath).
    void setRunStorePath(const QString& path);
    const QString& runStorePath() const { return m_runStorePath; }
    /// Saves geometry, dock/toolbar layout and the pages' splitters to QSettings (also done on close).
    void saveWindowState() const;

    Document* document() const { return m_document; }
    ClusterPage* clusterPage() const { return m_cluster; }
    SimulationPage* simulationPage() const { return m_simulation; }
    PodsPage* podsPage() const { return m_pods; }
    TimelinePage* timelinePage() const { return m_timeline; }
    TopologyPage* topologyPage() const { return m_topology; }
    EditorPage* editorPage() const { return m_editor; }
    InspectorPage* inspectorPage() const { return m_inspector; }
    PlanPage* planPage() const { return m_plan; }
    ComparePage* comparePage() const { return m_compare; }
    FragmentationPage* fragmentationPage() const { return m_fragmentation; }
    ObjectTreeModel* objectModel() const;
    DiagnosticsModel* diagnosticsModel() const { return m_diagnosticsModel; }
    /// Help → User Guide (F1): the guide compiled into the program, at one of its pages.
    void showUserGuide(const QString& page = QStringLiteral("user-guide.md"));
    HelpBrowser* helpBrowser() const { return m_help; }
    /// Opens the file of problem `row` of the Problems dock in the Editor tab at its line and
    /// column (what activating the row does); false when the problem is not in one of the files.
    bool showProblem(int row);
    /// View › Theme: applies the theme to the application and remembers it.
    void setTheme(Theme theme);
    QTabWidget* pages() const { return m_tabs; }

protected:
    void closeEvent(QCloseEvent* event) override;
    // Files and folders dropped on the window open as if chosen with File › Open.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildActions();
    void buildViewActions(QMenu* viewMenu);
    void buildRunActions();
    void buildLayout();
    void restoreWindowState();
    void fillRecentMenu();
    void onOpened();
    void showDiagnostics(const std::vector<Diagnostic>& extra = {});
    void setBusy(bool busy, const QString& text = {});
    void openFilesDialog();
    void openFolderDialog();
    /// Tells every background worker (opening, simulating, planning, indexing) to stop.
    void stopBackgroundWork();

    Document* m_document = nullptr;
    DiagnosticsModel* m_diagnosticsModel = nullptr;
    ClusterPage* m_cluster = nullptr;
    SimulationPage* m_simulation = nullptr;
    PodsPage* m_pods = nullptr;
    TimelinePage* m_timeline = nullptr;
    TopologyPage* m_topology = nullptr;
    EditorPage* m_editor = nullptr;
    InspectorPage* m_inspector = nullptr;
    PlanPage* m_plan = nullptr;
    ComparePage* m_compare = nullptr;
    FragmentationPage* m_fragmentation = nullptr;
    QString m_runStorePath; ///< empty: runs are not recorded
    QTableView* m_diagnosticsView = nullptr;
    QLabel* m_banner = nullptr;
    QTabWidget* m_tabs = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_statusText = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    HelpBrowser* m_help = nullptr;
    QActionGroup* m_themeActions = nullptr;
};

} // namespace drasim::ui
