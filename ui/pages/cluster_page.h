// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QTreeView;

namespace drasim::ui {

class Document;
class ObjectDetailView;
class ObjectTreeModel;

/// The document's objects by kind (for a scenario: the nodes, slices, classes and claims it
/// builds at time 0) with the selected one as YAML.
class ClusterPage : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterPage(Document* document, QWidget* parent = nullptr);

    ObjectTreeModel* objectModel() const { return m_model; }
    QTreeView* tree() const { return m_tree; }

private:
    void onDocumentOpened();
    void onSelectionChanged();

    Document* m_document;
    ObjectTreeModel* m_model = nullptr;
    QTreeView* m_tree = nullptr;
    ObjectDetailView* m_detail = nullptr;
};

} // namespace drasim::ui
