#include "io/output_folder.h"

#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/temp_names.h"

namespace fs = std::filesystem;

namespace onnxrun {

namespace {

// The kernel's protected_symlinks rule (on by default in Debian, Ubuntu, Fedora): a
// symlink in a sticky world-writable folder (/tmp) is followed only when it is the
// follower's own or the folder owner's. onnx-run also follows links by hand (readlink),
// which the kernel's rule never sees, and a machine may have the rule off.
bool may_follow(const fs::path& link, const struct stat& link_st) {
  const fs::path dir = link.has_parent_path() ? link.parent_path() : fs::path(".");
  struct stat dir_st {};
  if (::stat(dir.c_str(), &dir_st) != 0) return true;  // the write fails there
  const bool sticky_world_writable = (dir_st.st_mode & S_ISVTX) && (dir_st.st_mode & S_IWOTH);
  return !sticky_world_writable || link_st.st_uid == ::geteuid() || link_st.st_uid == dir_st.st_uid;
}

// refuse_foreign_symlinks before anything is made, cleaned or written in `dir`.
void refuse_in(const std::string& dir) {
  try {
    refuse_foreign_symlinks(dir.empty() ? "." : dir);
  } catch (const Error& e) {
    throw e.with_context("cannot write into " + dir);
  }
}

int open_folder(const std::string& dir) {
  // The folder itself is the user's to name: a symlink to a folder is followed, once.
  return ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

}  // namespace

void refuse_foreign_symlinks(const std::string& path) {
  // The path walked as the kernel walks it: a link's target takes the link's place, its
  // own steps walked in turn; `walked` holds no link.
  std::deque<fs::path> rest;
  for (const fs::path& part : fs::path(path)) rest.push_back(part);
  fs::path walked;
  for (int hops = 0; !rest.empty();) {
    const fs::path part = rest.front();
    rest.pop_front();
    if (part.empty() || part == ".") continue;
    const fs::path next = part == part.root_path() ? part : walked / part;
    struct stat st {};
    if (part == ".." || ::lstat(next.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      walked = next;  // nothing to follow (a step that is not there fails where it is used)
      continue;
    }
    if (!may_follow(next, st))
      fail(ErrorKind::kSecurity, "{} is another user's symlink in a sticky world-writable folder; not followed",
           next.string());
    std::error_code ec;
    const fs::path target = fs::read_symlink(next, ec);
    if (ec || ++hops > 40) return;  // the open fails there, and says why
    rest.insert(rest.begin(), target.begin(), target.end());
  }
}

std::shared_ptr<const OutputFolder> OutputFolder::make(const std::string& dir, std::vector<std::string>* made) {
  // Made one component at a time, as written: each folder this call makes is one it
  // records, those that `..` steps back out of (`-o a/b/../c` makes a/b) included, and
  // none that stood there already or that another process made meanwhile.
  refuse_in(dir);
  std::vector<std::string> made_here;
  std::error_code ec;
  fs::path so_far;
  int err = 0;
  for (const fs::path& part : fs::path(dir)) {
    so_far /= part;
    if (part.empty() || part == "." || part == ".." || part == part.root_path()) continue;
    if (fs::exists(fs::symlink_status(so_far, ec))) continue;  // a folder, or what fails below
    if (::mkdir(so_far.c_str(), 0777) == 0) made_here.push_back(so_far.string());
    else if (errno != EEXIST) {
      err = errno;
      break;
    }
  }
  if (err || !fs::is_directory(dir, ec)) {
    // What this call made goes again, innermost first: a failed make leaves nothing.
    for (auto it = made_here.rbegin(); it != made_here.rend(); ++it) ::rmdir(it->c_str());
    fail(ErrorKind::kIo, "cannot create output folder {}: {}", dir,
         err                                       ? std::strerror(err)
         : fs::exists(fs::symlink_status(dir, ec)) ? "not a folder"
                                                   : std::strerror(ENOENT));
  }
  if (made) made->insert(made->end(), made_here.begin(), made_here.end());
  const int fd = open_folder(dir);
  if (fd < 0) fail(ErrorKind::kIo, "cannot open output folder {}: {}", dir, std::strerror(errno));
  std::shared_ptr<const OutputFolder> folder(new OutputFolder(fd, dir));
  // Every format and every later run cleans alike: what a killed run left here goes
  // before anything is written, whatever file it was for.
  remove_stale_temporaries(folder->fd());
  return folder;
}

std::shared_ptr<const OutputFolder> OutputFolder::open_existing(const std::string& dir) {
  refuse_in(dir);
  const int fd = open_folder(dir);
  if (fd < 0) fail(ErrorKind::kIo, "cannot open folder {}: {}", dir.empty() ? "." : dir, std::strerror(errno));
  return std::shared_ptr<const OutputFolder>(new OutputFolder(fd, dir));
}

bool same_folder(const std::string& a, const std::string& b) {
  std::error_code ec;
  const fs::path pa = a.empty() ? "." : a, pb = b.empty() ? "." : b;
  if (fs::is_directory(pa, ec) && fs::is_directory(pb, ec)) return fs::equivalent(pa, pb, ec);
  auto resolved = [&](const fs::path& p) {
    fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec).lexically_normal();
    return r.filename().empty() ? r.parent_path() : r;  // "out/" is "out"
  };
  return resolved(pa) == resolved(pb);
}

FileEntry file_entry(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::absolute(path, ec).lexically_normal();
  struct stat st {};
  if (::stat(p.parent_path().c_str(), &st) != 0) return {0, 0, p.string()};
  return {st.st_dev, st.st_ino, p.filename().string()};
}

FileEntry file_entry(const OutputFolder& folder, const std::string& name) {
  struct stat st {};
  if (::fstat(folder.fd(), &st) != 0)
    fail(ErrorKind::kIo, "cannot read folder {}: {}", folder.path(), std::strerror(errno));
  return {st.st_dev, st.st_ino, name};
}

OutputFolder::~OutputFolder() { ::close(fd_); }

std::string OutputFolder::path_of(const std::string& name) const {
  return path_.empty() ? name : (fs::path(path_) / name).string();
}

}  // namespace onnxrun
