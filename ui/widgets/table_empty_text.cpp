// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/table_empty_text.h"

#include <QPainter>

namespace drasim::ui {

EmptyTextTableView::EmptyTextTableView(QWidget* parent)
    : QTableView(parent)
{ }

void EmptyTextTableView::setEmptyText(const QString& text)
{
    if (text == m_emptyText)
        return;
    m_emptyText = text;
    viewport()->update();
}

QString EmptyTextTableView::shownText() const
{
    return model() && model()->rowCount() == 0 ? m_emptyText : QString();
}

namespace {

void paintEmptyText(QAbstractItemView* view, const QString& text)
{
    if (text.isEmpty())
        return;
    QPainter p(view->viewport());
    p.setPen(view->palette().color(QPalette::PlaceholderText));
    p.drawText(view->viewport()->rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap, text);
}

} // namespace

void EmptyTextTableView::paintEvent(QPaintEvent* event)
{
    QTableView::paintEvent(event);
    paintEmptyText(this, shownText());
}

EmptyTextTreeView::EmptyTextTreeView(QWidget* parent)
    : QTreeView(parent)
{ }

void EmptyTextTreeView::setEmptyText(const QString& text)
{
    if (text == m_emptyText)
        return;
    m_emptyText = text;
    viewport()->update();
}

QString EmptyTextTreeView::shownText() const
{
    return model() && model()->rowCount() == 0 ? m_emptyText : QString();
}

void EmptyTextTreeView::paintEvent(QPaintEvent* event)
{
    QTreeView::paintEvent(event);
    paintEmptyText(this, shownText());
}

} // namespace drasim::ui
