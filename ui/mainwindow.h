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

namespace drasim::ui {

class DiagnosticsModel;
class LoadJob;
class ObjectDetailView;
class ObjectTreeModel;

/// The drasim-gui main window: open manifests (files or folders), browse the objects they contain,
/// see each as YAML, and see every problem of the input inline with its location.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads in the background; the window stays responsive and shows progress with a Cancel button.
    void openPaths(const QStringList& paths);
    LoadJob* loadJob() const { return m_loadJob; }
    ObjectTreeModel* objectModel() const { return m_objectModel; }
    DiagnosticsModel* diagnosticsModel() const { return m_diagnosticsModel; }

private:
    void buildActions();
    void buildLayout();
    void onLoaded(std::shared_ptr<const yamlio::LoadResult> result, const QStringList& paths);
    void onSelectionChanged();
    void setBusy(bool busy, const QString& text = {});
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
    QLabel* m_statusText = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
};

} // namespace drasim::ui
