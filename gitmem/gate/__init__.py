"""gate"""
