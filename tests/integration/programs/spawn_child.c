/* spawn_child.c -- an OpenMP program that starts another OpenMP program, for the recorder's
 * tests of descendant processes (each must be recorded in its own experiment, never mixed).
 *
 * Every process runs one parallel region whose `single` creates NTASKS tasks, then prints
 * "<role> pid=P tasks=NTASKS". MODE says what the top process does after its region:
 *   fork    fork() + execv() of itself as a leaf, waits for it
 *   system  system("<itself> leaf ..."): a shell in between, which is not an OpenMP program
 *   first   starts the child with fork + exec BEFORE its own region (the child records first)
 *   closefds  closes every descriptor above 2 first (as some programs do), then is a leaf
 *   leaf    nothing more
 *
 * Usage: spawn_child fork|system|first|closefds|leaf [NTASKS=100]
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long sink;

static void region(const char* role, int ntasks) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < ntasks; i++) {
#pragma omp task firstprivate(i)
    sink += i;
  }
  printf("%s pid=%d tasks=%d\n", role, (int)getpid(), ntasks);
  fflush(stdout);
}

static int fork_exec(const char* self, const char* ntasks) {
  pid_t pid = fork();
  if (pid == 0) {
    char* args[] = {(char*)self, "leaf", (char*)ntasks, NULL};
    execv(self, args);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "leaf";
  const char* ntasks = argc > 2 ? argv[2] : "100";
  int n = atoi(ntasks);
  int rc = 0;
  if (strcmp(mode, "first") == 0) rc = fork_exec(argv[0], ntasks);
  if (strcmp(mode, "closefds") == 0) {
    for (int fd = 3; fd < 1024; fd++) close(fd);
  }
  region(strcmp(mode, "leaf") == 0 ? "leaf" : "top", n);
  if (strcmp(mode, "fork") == 0) rc = fork_exec(argv[0], ntasks);
  if (strcmp(mode, "system") == 0) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' leaf %s", argv[0], ntasks);
    int status = system(cmd);
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  }
  return rc;
}
