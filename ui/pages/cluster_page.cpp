// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/cluster_page.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/models/node_pool_model.h"
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

    m_poolModel = new NodePoolModel(this);
    m_poolTree = new QTreeView(this);
    m_poolTree->setModel(m_poolModel);
    m_poolTree->setUniformRowHeights(true);
    m_poolTree->setAlternatingRowColors(true);
    m_poolTree->header()->setStretchLastSection(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_tree);
    m_stack->addWidget(m_poolTree);
    m_groupBy = new QComboBox(this);
    m_groupBy->addItem(tr("kind"));
    m_groupBy->addItem(tr("node pool"));
    auto* bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("Group by"), this));
    bar->addWidget(m_groupBy);
    bar->addStretch(1);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(bar);
    leftLayout->addWidget(m_stack, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_document, &Document::opened, this, &ClusterPage::onDocumentOpened);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
        &ClusterPage::onSelectionChanged);
    connect(m_poolTree->selectionModel(), &QItemSelectionModel::currentChanged, this,
        &ClusterPage::onPoolSelectionChanged);
    connect(m_groupBy, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_stack->setCurrentIndex(i);
        if (i == 1)
            onPoolSelectionChanged();
        else
            onSelectionChanged();
    });
    m_groupBy->setEnabled(false);
}

ObjectTreeModel* ClusterPage::objectModel()
{
    catchUp();
    return m_model;
}

NodePoolModel* ClusterPage::poolModel()
{
    catchUp();
    return m_poolModel;
}

QTreeView* ClusterPage::tree()
{
    catchUp();
    return m_tree;
}

QTreeView* ClusterPage::poolTree()
{
    catchUp();
    return m_poolTree;
}

void ClusterPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    catchUp();
}

void ClusterPage::setGroupByPool(bool byPool)
{
    catchUp();
    m_groupBy->setCurrentIndex(byPool && m_groupBy->isEnabled() ? 1 : 0);
}

bool ClusterPage::groupByPool()
{
    catchUp();
    return m_groupBy->currentIndex() == 1;
}

void ClusterPage::onPoolSelectionChanged()
{
    const QModelIndex current = m_poolTree->currentIndex();
    const QString kind = current.data(NodePoolModel::KindRole).toString();
    const QString name = current.siblingAtColumn(NodePoolModel::NameColumn).data().toString();
    if (const auto* objects = m_model->objects()) {
        const std::string wanted = name.toStdString();
        auto find = [&](const auto& list) {
            for (size_t i = 0; i < list.size(); ++i)
                if (list[i].meta.name == wanted)
                    return int(i);
            return -1;
        };
        const int i = kind == QLatin1String("Node")  ? find(objects->nodes)
            : kind == QLatin1String("ResourceSlice") ? find(objects->resourceSlices)
                                                     : -1;
        if (i >= 0) {
            m_detail->showObject(*objects, kind, i);
            return;
        }
    }
    m_detail->showPlaceholder(tr("Select a node or a slice to see it as YAML."));
}

void ClusterPage::onDocumentOpened()
{
    m_behind = true;
    if (isVisible()) {
        // The window may be switching to another page in the same breath: decide once it has.
        QTimer::singleShot(0, this, [this]() {
            if (isVisible())
                catchUp();
        });
        return;
    }
    // Hidden: let go of the previous document now (its objects may be large); fill when shown.
    m_model->setObjects(nullptr);
    m_poolModel->setPools({});
    m_detail->showPlaceholder(tr("Select an object to see it as YAML."));
}

void ClusterPage::catchUp()
{
    if (!m_behind)
        return;
    m_behind = false;
    fill();
}

void ClusterPage::fill()
{
    m_model->setObjects(m_document->objects());
    const auto prepared = m_document->prepared();
    m_poolModel->setPools(prepared ? prepared->pools : std::vector<std::shared_ptr<const sim::NodePool>> {});
    m_groupBy->setEnabled(m_poolModel->rowCount() > 0);
    if (m_poolModel->rowCount() > 0) {
        for (int r = 0; r < m_poolModel->rowCount(); ++r)
            m_poolTree->expand(m_poolModel->index(r, 0));
        for (int c = 0; c < NodePoolModel::ColumnCount - 1; ++c)
            m_poolTree->resizeColumnToContents(c);
        m_poolTree->setCurrentIndex(m_poolModel->index(0, 0, m_poolModel->index(0, 0)));
    }
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
    // A scenario is about its node pools; manifests about their objects.
    setGroupByPool(m_poolModel->rowCount() > 0);
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
