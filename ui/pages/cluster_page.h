// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QComboBox;
class QStackedWidget;
class QTreeView;

namespace drasim::ui {

class Document;
class ObjectDetailView;
class NodePoolModel;
class ObjectTreeModel;

/// The document's objects by kind (for a scenario: the nodes, slices, classes and claims it
/// builds at time 0) with the selected one as YAML. A scenario's nodes and slices can also be
/// shown grouped by node pool. The page takes in a newly opened document when it is shown (or
/// its models are asked for): a scenario opens on the dashboard, and the page's trees over
/// thousands of nodes would hold up showing it.
class ClusterPage : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterPage(Document* document, QWidget* parent = nullptr);

    ObjectTreeModel* objectModel();
    NodePoolModel* poolModel();
    QTreeView* tree();
    QTreeView* poolTree();
    /// Shows objects by kind (false) or by node pool (true; only when the scenario has pools).
    void setGroupByPool(bool byPool);
    bool groupByPool();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onDocumentOpened();
    /// Brings the trees up to date with the document when it changed since they were filled.
    void catchUp();
    void fill();
    void onSelectionChanged();
    void onPoolSelectionChanged();

    Document* m_document;
    ObjectTreeModel* m_model = nullptr;
    QTreeView* m_tree = nullptr;
    NodePoolModel* m_poolModel = nullptr;
    QTreeView* m_poolTree = nullptr;
    QComboBox* m_groupBy = nullptr;
    QStackedWidget* m_stack = nullptr;
    ObjectDetailView* m_detail = nullptr;
    bool m_behind = false; ///< a document opened since the trees were filled
};

} // namespace drasim::ui
