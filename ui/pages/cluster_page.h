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
/// shown grouped by node pool.
class ClusterPage : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterPage(Document* document, QWidget* parent = nullptr);

    ObjectTreeModel* objectModel() const { return m_model; }
    NodePoolModel* poolModel() const { return m_poolModel; }
    QTreeView* tree() const { return m_tree; }
    QTreeView* poolTree() const { return m_poolTree; }
    /// Shows objects by kind (false) or by node pool (true; only when the scenario has pools).
    void setGroupByPool(bool byPool);
    bool groupByPool() const;

private:
    void onDocumentOpened();
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
};

} // namespace drasim::ui
