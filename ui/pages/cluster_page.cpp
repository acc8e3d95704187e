// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/cluster_page.h"

#include <QHeaderView>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/models/object_tree_model.h"
#include "ui/widgets/object_detail_view.h"

namespace drasim::ui {

ClusterPage::ClusterPage(Document* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    m_model = new ObjectTreeModel(this);
    m_tree = new QTreeView(this);
    m_tree->setModel(m_model);
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
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_document, &Document::opened, this, &ClusterPage::onDocumentOpened);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
        &ClusterPage::onSelectionChanged);
}

void ClusterPage::onDocumentOpened()
{
    m_model->setObjects(m_document->objects());
    // A scenario's cluster can hold thousands of nodes: expand only small trees.
    if (m_model->objects() && m_model->objects()->size() <= 500)
        m_tree->expandAll();
    for (int c = 0; c < ObjectTreeModel::ColumnCount - 1; ++c)
        m_tree->resizeColumnToContents(c);
    // Show something useful right away: the first object of the first kind.
    const QModelIndex firstGroup = m_model->index(0, 0);
    if (firstGroup.isValid() && m_model->rowCount(firstGroup) > 0) {
        m_tree->expand(firstGroup);
        m_tree->setCurrentIndex(m_model->index(0, 0, firstGroup));
    } else {
        onSelectionChanged();
    }
}

void ClusterPage::onSelectionChanged()
{
    const auto ref = m_model->objectAt(m_tree->currentIndex());
    if (!m_model->objects() || ref.kind.isEmpty()) {
        m_detail->showPlaceholder(tr("Select an object to see it as YAML."));
        return;
    }
    m_detail->showObject(*m_model->objects(), ref.kind, ref.index);
}

} // namespace drasim::ui
