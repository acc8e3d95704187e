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

void EmptyTextTableView::paintEvent(QPaintEvent* event)
{
    QTableView::paintEvent(event);
    const QString text = shownText();
    if (text.isEmpty())
        return;
    QPainter p(viewport());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(viewport()->rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap, text);
}

} // namespace drasim::ui
