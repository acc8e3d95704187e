// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>

#include <QObject>
#include <QString>

class QTextDocument;
class QUndoStack;

namespace drasim::ui {

/// The text of the document's files as the user edits them: one QTextDocument per file, read on
/// first use, whose every undo step becomes a command on the document's undo stack, so Edit ›
/// Undo takes back typing and seed changes alike, in the order they were made.
class TextBuffers : public QObject
{
    Q_OBJECT
public:
    TextBuffers(QUndoStack* undo, QObject* parent = nullptr);
    ~TextBuffers() override;

    /// The buffer of a file (read from disk the first time; empty with an error when unreadable).
    QTextDocument* buffer(const QString& path, QString* error = nullptr);
    bool isModified(const QString& path) const;
    /// Writes the buffer next to the file and renames it over the file (readers never see half a
    /// file). False with a message when the file cannot be written; the buffer is kept then.
    bool save(const QString& path, QString* error);
    /// The document was opened anew: unmodified buffers re-read their file, and no buffer can be
    /// undone into the previous document.
    void documentReopened();

Q_SIGNALS:
    void modificationChanged(const QString& path, bool modified);

private:
    bool read(const QString& path, QTextDocument* doc, QString* error);

    QUndoStack* m_undo;
    std::map<QString, QTextDocument*> m_buffers;
};

} // namespace drasim::ui
