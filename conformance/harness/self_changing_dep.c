/* A library the `origin` variant of self_changing_plugin.c finds through RUNPATH $ORIGIN only:
 * next to the plugin's file, never on the loader's path. */
__attribute__((visibility("default"))) int dmconf_self_changing_dep(void) { return 1; }
