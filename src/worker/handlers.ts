// Imports every module that registers job handlers, so the registry is complete before the worker starts.
export {};
