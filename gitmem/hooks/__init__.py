"""hooks"""
