// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMainWindow>
#include <QStringList>

#include <memory>

#include "core/yamlio/loader.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeView;
class QTableView;
class QTabWidget;

namespace drasim::ui {

class DiagnosticsModel;
class LoadJob;
class ObjectDetailView;
class ObjectTreeModel;
class SimulationPage;

/// The drasim-gui main window: open manifests (files or folders), browse the objects they contain,
/// see each as YAML, and see every problem of the input inline with its location.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens manifests (files or folders) or one Scenario file. Manifests load in the background;
    /// a scenario is simulated in the background. The window stays responsive throughout.
    void openPaths(const QStringList& paths);
    /// SQLite file where simulation runs are recorded (default: the user's data folder).
    void setRunStorePath(const QString& path);
    SimulationPage* simulationPage() const { return m_simulation; }
    /// True when the file is a drasim Scenario document (rather than Kubernetes manifests).
    static bool isScenarioFile(const QString& path);
    LoadJob* loadJob() const { return m_loadJob; }
    ObjectTreeModel* objectModel() const { return m_objectModel; }
    DiagnosticsModel* diagnosticsModel() const { return m_diagnosticsModel; }

private:
    void buildActions();
    void buildLayout();
    void onLoaded(std::shared_ptr<const yamlio::LoadResult> result, const QStringList& paths);
    void onSelectionChanged();
    void setBusy(bool busy, const QString& text = {});
    void showErrorBanner();
    void openFilesDialog();
    void openFolderDialog();

    QStringList m_paths;
    std::shared_ptr<const api::ObjectSet> m_objects;

    LoadJob* m_loadJob = nullptr;
    ObjectTreeModel* m_objectModel = nullptr;
    DiagnosticsModel* m_diagnosticsModel = nullptr;
    QTreeView* m_tree = nullptr;
    ObjectDetailView* m_detail = nullptr;
    QTableView* m_diagnosticsView = nullptr;
    QLabel* m_banner = nullptr;
    QTabWidget* m_tabs = nullptr;
    SimulationPage* m_simulation = nullptr;
    QLabel* m_statusText = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
};

} // namespace drasim::ui
