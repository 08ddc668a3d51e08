// Opening a file to read it (DESIGN.md, "Reads:"): every door that reads a file onnx-run
// was given or found (-i, --npz, --expected, compare, test sets, models, reports to merge)
// opens it here, so they agree on what is refused:
// - the open never blocks: O_NONBLOCK (a FIFO without a writer would wait forever), then
//   the descriptor is checked;
// - only a regular file is read: a FIFO, a device, a socket (or a link to one) is refused,
//   since its size is not known before it is read and nothing bounds what it sends;
// - a folder is refused;
// and the message names the file and says why ("cannot open F: Permission denied").
#pragma once

#include <string>

#include <sys/stat.h>

#include "io/safe_open.h"

namespace onnxrun {

// The open file, blocking reads restored, its stat in `st` when given. Throws Error(kIo)
// "PATH: ..." as described above.
UniqueFd open_regular_file(const std::string& path, struct stat* st = nullptr);

// "a FIFO", "a character device", ... for a file type in a message.
const char* file_type_name(mode_t mode);

}  // namespace onnxrun
