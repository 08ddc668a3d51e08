# bash completion for onnx-run (installed as share/bash-completion/completions/onnx-run).
_onnx_run() {
  local cur prev words cword
  _init_completion -n = || return
  local commands="run info test bench"
  local run_opts="-i --input -o --output-dir -d --test-dir --rtol --atol --npz --shape --random --seed --range
                  --format --full --json --dump-intermediates --no-fuse --expand-functions --print-graph -v --verbose -q --quiet --help --version"
  local cmd=""
  local w
  for w in "${words[@]:1:cword-1}"; do
    case " $commands " in *" $w "*) cmd=$w; break ;; esac
  done
  case $prev in
    --format) COMPREPLY=($(compgen -W "pb npy npz" -- "$cur")); return ;;
    -o|--output-dir|-d|--test-dir|--dump-intermediates) _filedir -d; return ;;
    --npz) _filedir npz; return ;;
    -i|--input) _filedir '@(pb|npy)'; return ;;
    --seed|--range|--rtol|--atol|--shape) return ;;
  esac
  if [[ $cur == -* ]]; then
    case $cmd in
      info) COMPREPLY=($(compgen -W "--json -v --verbose -q --quiet --help" -- "$cur")) ;;
      test|bench) COMPREPLY=($(compgen -W "--help --json --no-fuse" -- "$cur")) ;;
      *) COMPREPLY=($(compgen -W "$run_opts" -- "$cur")) ;;
    esac
    return
  fi
  _filedir onnx
  [[ $cword -eq 1 ]] && COMPREPLY+=($(compgen -W "$commands" -- "$cur"))
} && complete -F _onnx_run onnx-run
