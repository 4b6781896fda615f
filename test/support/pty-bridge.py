# Runs a command on a new pseudo-terminal and bridges it to pipes, so a test can type at a real terminal
# and read what it shows: python3 pty-bridge.py ROWS COLS COMMAND [ARGS...]
#   stdin  -> the terminal's keyboard (bytes as typed; end of stdin types nothing more)
#   stdout <- everything the program writes to the terminal (echo, prompts, escape sequences)
#   the fd named by $PTY_CONTROL_FD (when set) -> control lines: "resize ROWS COLS" sets the window size
#            (the kernel then sends SIGWINCH to the program)
# Exits with the command's exit status (128 + N when a signal N ended it).
import errno, fcntl, os, pty, select, struct, sys, termios

def set_size(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))

def main():
    rows, cols, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    pid, master = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    set_size(master, rows, cols)
    control_fd = int(os.environ['PTY_CONTROL_FD']) if os.environ.get('PTY_CONTROL_FD') else None
    inputs = [0] if control_fd is None else [0, control_fd]
    control = b''
    while True:
        ready, _, _ = select.select([master] + inputs, [], [])
        if master in ready:
            try:
                data = os.read(master, 65536)
            except OSError as error:
                if error.errno != errno.EIO:
                    raise
                data = b''
            if not data:
                break
            os.write(1, data)
        if 0 in ready:
            data = os.read(0, 65536)
            if data:
                os.write(master, data)
            else:
                inputs.remove(0)
        if control_fd is not None and control_fd in ready:
            data = os.read(control_fd, 4096)
            if not data:
                inputs.remove(control_fd)
            control += data
            while b'\n' in control:
                line, control = control.split(b'\n', 1)
                words = line.decode().split()
                if words[:1] == ['resize']:
                    set_size(master, int(words[1]), int(words[2]))
    _, status = os.waitpid(pid, 0)
    sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))

main()
