#include "session/atomic_save.h"

#include <QFile>

#include "util/atomic_file.h"
#include "util/error.h"

namespace once::studio {

bool saveFileAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    try {
        once::AtomicFile f(QFile::encodeName(path).toStdString());
        f.write(bytes.constData(), std::size_t(bytes.size()));
        f.commit();
        return true;
    } catch (const once::OnceError& e) {
        if (error) {
            *error = QString::fromStdString(e.what());
        }
        return false;
    }
}

}  // namespace once::studio
